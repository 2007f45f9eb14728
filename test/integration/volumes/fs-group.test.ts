// fsGroup volume ownership on a real temp dir (as root, so chown works): the volumes the kubelet
// gives to the group (emptyDir, configMap, …) get it, hostPath never does, and the walk never
// follows a link, never opens a FIFO, never crosses into another filesystem and stops at its limit.
import {execFileSync} from 'node:child_process'
import {lstatSync, statSync} from 'node:fs'
import {chmod, chown, mkdir, mkdtemp, readlink, rm, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import type {StaticPod, Volume, VolumeMount} from '../../../src/api/types.js'
import {nodeHostFs} from '../../../src/host/node-host-fs.js'
import {configMapVolumePath, emptyDirPath} from '../../../src/kuberuntime/naming.js'
import {createObjectStore} from '../../../src/manifest/object-store.js'
import type {VolumeDeps} from '../../../src/volumes/kind.js'
import {ownedMode} from '../../../src/volumes/ownership.js'
import {cleanupVolumes} from '../../../src/volumes/prepare.js'
import {prepareVolumes} from '../../../src/volumes/setup.js'
import {makeContainer, makeStaticPod, UID} from '../../support/pods.js'

const isRoot = process.getuid?.() === 0
const GID = 2000
let work: string

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'kube-node-fsgroup-'))
})
afterAll(async () => {
  for (const m of await nodeHostFs.mountsUnder(work)) await nodeHostFs.unmount(m.path)
  await rm(work, {recursive: true, force: true})
})

/** `stat -c '%g %a'`, as the e2e test reads it in a container. */
const gm = (path: string): string => {
  const st = lstatSync(path)
  return `${st.gid} ${(st.mode & 0o7777).toString(8)}`
}

describe.runIf(isRoot)('prepareVolumes with fsGroup', () => {
  const rootDirs: string[] = []
  afterEach(async () => {
    for (const rootDir of rootDirs.splice(0)) await cleanupVolumes({fs: nodeHostFs, rootDir}, UID)
  })

  function setup(volumes: Volume[], mounts: VolumeMount[], fsGroup: number | undefined) {
    const sp: StaticPod = makeStaticPod((p) => {
      p.spec.volumes = volumes
      p.spec.containers = [makeContainer({volumeMounts: mounts})]
      if (fsGroup !== undefined) p.spec.securityContext = {fsGroup}
    })
    const rootDir = join(work, `root-${Math.random().toString(36).slice(2)}`)
    rootDirs.push(rootDir)
    const deps: VolumeDeps = {
      fs: nodeHostFs,
      rootDir,
      objects: createObjectStore([{metadata: {name: 'cfg', namespace: 'default'}, data: {'app.conf': 'port=80', key: 'v'}}], []),
    }
    return {deps, prepare: () => prepareVolumes(deps, sp.pod, sp.pod.spec.containers[0]!)}
  }

  it('gives emptyDir and configMap volumes to the group as the kubelet, and leaves hostPath alone', async () => {
    const host = join(work, 'host-data')
    await mkdir(host, {mode: 0o755})
    const {deps, prepare} = setup(
      [
        {name: 'scratch', emptyDir: {}},
        {name: 'conf', configMap: {name: 'cfg', items: [{key: 'app.conf', path: 'etc/app.conf', mode: 0o600}, {key: 'key', path: 'key'}]}},
        {name: 'host', hostPath: {path: host}},
      ],
      [
        {name: 'scratch', mountPath: '/scratch'},
        {name: 'conf', mountPath: '/conf'},
        {name: 'host', mountPath: '/host'},
      ],
      GID,
    )
    await prepare()
    expect(gm(emptyDirPath(deps.rootDir, UID, 'scratch'))).toBe('2000 2777')
    const conf = configMapVolumePath(deps.rootDir, UID, 'conf')
    const payload = join(conf, await readlink(join(conf, '..data')))
    // Read-only: group r (and x for directories), setgid on directories.
    expect(gm(join(payload, 'key'))).toBe('2000 644')
    expect(gm(join(payload, 'etc/app.conf'))).toBe('2000 640')
    expect(gm(join(payload, 'etc'))).toBe('2000 2755')
    expect(gm(payload)).toBe('2000 2755')
    expect(gm(conf)).toBe('2000 2755')
    // The links of the atomic writer get the group too (lchown), their targets are unchanged.
    expect(lstatSync(join(conf, 'key')).gid).toBe(GID)
    expect(gm(host)).toBe('0 755')

    // Unchanged data is not rewritten on the next prepare (the modes compare equal).
    const before = await readlink(join(conf, '..data'))
    await prepare()
    expect(await readlink(join(conf, '..data'))).toBe(before)
  })

  it('changes nothing without fsGroup', async () => {
    const {deps, prepare} = setup([{name: 'scratch', emptyDir: {}}, {name: 'conf', configMap: {name: 'cfg'}}], [
      {name: 'scratch', mountPath: '/s'},
      {name: 'conf', mountPath: '/c'},
    ], undefined)
    await prepare()
    expect(gm(emptyDirPath(deps.rootDir, UID, 'scratch'))).toBe('0 777')
    expect(gm(join(configMapVolumePath(deps.rootDir, UID, 'conf'), '..data/key'))).toBe('0 644')
  })

  it('never walks what containers wrote into an existing emptyDir: only its directory', async () => {
    const {deps, prepare} = setup([{name: 'scratch', emptyDir: {}}], [{name: 'scratch', mountPath: '/s'}], GID)
    await prepare()
    const dir = emptyDirPath(deps.rootDir, UID, 'scratch')
    await writeFile(join(dir, 'written'), 'x', {mode: 0o600})
    await chown(join(dir, 'written'), 1000, 1000)
    await chmod(dir, 0o777) // a root container cleared the setgid bit
    await prepare()
    expect(gm(dir)).toBe('2000 2777')
    expect(gm(join(dir, 'written'))).toBe('1000 600')
  })
})

describe.runIf(isRoot)('HostFs.setGroupOwnership on a tree a container could have written', () => {
  const mode = (type: Parameters<typeof ownedMode>[0], m: number) => ownedMode(type, m, false)

  it('changes files and directories, gives links only their own group, never follows them, never opens a FIFO', async () => {
    const outside = join(work, 'outside')
    await mkdir(outside, {mode: 0o700})
    await writeFile(join(outside, 'host-secret'), 'x', {mode: 0o600})
    const vol = join(work, 'vol-links')
    await mkdir(join(vol, 'sub/deeper'), {recursive: true, mode: 0o755})
    await writeFile(join(vol, 'sub/deeper/file'), 'x', {mode: 0o644})
    await symlink(join(outside, 'host-secret'), join(vol, 'to-file'))
    await symlink(outside, join(vol, 'sub/to-dir'))
    execFileSync('mkfifo', [join(vol, 'fifo')])

    const r = await nodeHostFs.setGroupOwnership(vol, GID, {recursive: true, limit: 100, mode})
    expect(r).toEqual({entries: 7, truncated: false})
    expect(gm(vol)).toBe('2000 2775')
    expect(gm(join(vol, 'sub'))).toBe('2000 2775')
    expect(gm(join(vol, 'sub/deeper'))).toBe('2000 2775')
    expect(gm(join(vol, 'sub/deeper/file'))).toBe('2000 664')
    expect(lstatSync(join(vol, 'to-file')).gid).toBe(GID)
    expect(lstatSync(join(vol, 'fifo')).gid).toBe(GID)
    // What the links point at is untouched.
    expect(gm(outside)).toBe('0 700')
    expect(gm(join(outside, 'host-secret'))).toBe('0 600')
  })

  it('refuses a volume directory that is itself a link', async () => {
    const target = join(work, 'link-target')
    await mkdir(target, {mode: 0o700})
    await symlink(target, join(work, 'vol-is-link'))
    await expect(nodeHostFs.setGroupOwnership(join(work, 'vol-is-link'), GID, {recursive: true, limit: 100, mode})).rejects.toThrow()
    expect(gm(target)).toBe('0 700')
  })

  it('stops at its limit and then leaves the root as it was', async () => {
    const vol = join(work, 'vol-many')
    await mkdir(vol, {mode: 0o755})
    for (let i = 0; i < 20; i++) await writeFile(join(vol, `f${i}`), 'x', {mode: 0o644})
    const r = await nodeHostFs.setGroupOwnership(vol, GID, {recursive: true, limit: 5, mode})
    expect(r.truncated).toBe(true)
    expect(gm(vol)).toBe('0 755')
  })

  it('does not cross into another filesystem mounted below the volume', async () => {
    const vol = join(work, 'vol-mount')
    await mkdir(join(vol, 'mnt'), {recursive: true, mode: 0o755})
    await nodeHostFs.mountTmpfs(join(vol, 'mnt'), 1 << 20)
    try {
      await writeFile(join(vol, 'mnt/other-fs'), 'x', {mode: 0o644})
      await nodeHostFs.setGroupOwnership(vol, GID, {recursive: true, limit: 100, mode})
      expect(gm(vol)).toBe('2000 2775')
      expect(statSync(join(vol, 'mnt/other-fs')).gid).toBe(0)
    } finally {
      await nodeHostFs.unmount(join(vol, 'mnt'))
    }
  })
})
