import {mkdtemp, mkdir, readdir, readFile, readlink, rm, writeFile} from 'node:fs/promises'
import {createServer, type Server} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {existsSync, statSync} from 'node:fs'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import type {ConfigMap, StaticPod, Volume, VolumeMount} from '../../../src/api/types.js'
import {ConfigError} from '../../../src/kuberuntime/errors.js'
import {configMapVolumePath, emptyDirPath, secretVolumePath} from '../../../src/kuberuntime/naming.js'
import {createObjectStore} from '../../../src/manifest/object-store.js'
import {nodeHostFs} from '../../../src/host/node-host-fs.js'
import {checkHostPath, cleanupVolumes} from '../../../src/volumes/prepare.js'
import type {HostFs} from '../../../src/host/port.js'

type Mounter = Pick<HostFs, 'mountTmpfs' | 'unmount' | 'mountsUnder'>
import {prepareVolumes, refreshProjectedVolumes} from '../../../src/volumes/setup.js'
import type {VolumeDeps} from '../../../src/volumes/kind.js'
import type {Logger} from '../../../src/util/logger.js'
import {makeContainer, makeStaticPod, UID} from '../../support/pods.js'

let work: string
let server: Server

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'kube-node-volumes-'))
  await mkdir(join(work, 'dir'))
  await writeFile(join(work, 'file'), 'x')
  // A real unix socket for the Socket type.
  server = createServer()
  await new Promise<void>((resolve) => server.listen(join(work, 'app.sock'), resolve))
})

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  // Never leave a tmpfs behind, even when a test failed half-way.
  for (const m of await nodeHostFs.mountsUnder(work)) await nodeHostFs.unmount(m.path)
  await rm(work, {recursive: true, force: true})
})

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)

describe('checkHostPath', () => {
  it.each<[string, string, string | undefined]>([
    ['dir', 'Directory', undefined],
    ['file', 'File', undefined],
    ['app.sock', 'Socket', undefined],
    ['dir', 'DirectoryOrCreate', undefined],
    ['file', 'FileOrCreate', undefined],
    ['missing', '', undefined],
    ['file', '', undefined],
    ['missing', 'Directory', 'does not exist'],
    ['missing', 'File', 'does not exist'],
    ['missing', 'Socket', 'does not exist'],
    ['file', 'Directory', 'is not a directory'],
    ['dir', 'File', 'is not a file'],
    ['file', 'Socket', 'is not a socket'],
    ['file', 'DirectoryOrCreate', 'is not a directory'],
    ['dir', 'FileOrCreate', 'is not a file'],
    ['file', 'CharDevice', 'is not a character device'],
    ['dir', 'BlockDevice', 'is not a block device'],
  ])('%s as %j → %j', async (name, type, error) => {
    const outcome = await checkHostPath(nodeHostFs, 'data', join(work, name), type).then(
      () => undefined,
      (err: unknown) => err,
    )
    if (error === undefined) expect(outcome).toBeUndefined()
    else {
      expect(outcome).toBeInstanceOf(ConfigError)
      expect((outcome as Error).message).toBe(`volume "data": hostPath type check failed: ${join(work, name)} ${error} (type ${type})`)
    }
  })

  it('accepts /dev/null as a CharDevice', async () => {
    await expect(checkHostPath(nodeHostFs, 'null', '/dev/null', 'CharDevice')).resolves.toBeUndefined()
  })

  it('creates a missing directory 0755 for DirectoryOrCreate', async () => {
    const path = join(work, 'created', 'deep')
    await checkHostPath(nodeHostFs, 'd', path, 'DirectoryOrCreate')
    expect(statSync(path).isDirectory()).toBe(true)
    expect(mode(path)).toBe('755')
  })

  it('creates an empty 0644 file and its parents for FileOrCreate, and keeps an existing one', async () => {
    const path = join(work, 'made', 'sub', 'state.db')
    await checkHostPath(nodeHostFs, 'f', path, 'FileOrCreate')
    expect(statSync(path).isFile()).toBe(true)
    expect(statSync(path).size).toBe(0)
    expect(mode(path)).toBe('644')
    await writeFile(path, 'kept')
    await checkHostPath(nodeHostFs, 'f', path, 'FileOrCreate')
    expect(await readFile(path, 'utf8')).toBe('kept')
  })
})

const isRoot = process.getuid?.() === 0

describe('prepareVolumes', () => {
  const warnings: string[] = []
  // Secret volumes get a real tmpfs when we are root: unmount whatever a test mounted.
  const rootDirs: string[] = []
  afterEach(async () => {
    for (const rootDir of rootDirs.splice(0)) await cleanupVolumes({fs: nodeHostFs, rootDir}, UID)
  })
  const logger: Logger = {info: () => {}, warn: (m) => warnings.push(m), error: () => {}, debug: () => {}, enabled: () => false}

  function setup(volumes: Volume[], mounts: VolumeMount[], configMaps: ConfigMap[] = [], more: Partial<VolumeDeps> = {}) {
    const sp: StaticPod = makeStaticPod((p) => {
      p.spec.volumes = volumes
      p.spec.containers = [makeContainer({volumeMounts: mounts})]
    })
    const rootDir = join(work, `root-${Math.random().toString(36).slice(2)}`)
    rootDirs.push(rootDir)
    const deps: VolumeDeps = {
      fs: nodeHostFs,
      rootDir,
      logger,
      objects: createObjectStore(configMaps, [
        {metadata: {name: 'creds', namespace: 'default'}, data: {password: Buffer.from('s3cr3t').toString('base64')}},
      ]),
      ...more,
    }
    return {sp, deps, prepare: () => prepareVolumes(deps, sp.pod, sp.pod.spec.containers[0]!)}
  }

  const cm = (data: Record<string, string>): ConfigMap => ({metadata: {name: 'app-config', namespace: 'default'}, data})

  it('writes configMap and secret files with their modes, readable through the volume dir', async () => {
    const {deps, prepare} = setup(
      [
        {name: 'conf', configMap: {name: 'app-config', items: [{key: 'app.conf', path: 'etc/app.conf', mode: 0o600}, {key: 'level', path: 'level'}]}},
        {name: 'sec', secret: {secretName: 'creds', defaultMode: 0o400}},
      ],
      [
        {name: 'conf', mountPath: '/etc/app'},
        {name: 'sec', mountPath: '/secret'},
      ],
      [cm({'app.conf': 'port=80', level: 'debug'})],
    )
    await prepare()
    const conf = configMapVolumePath(deps.rootDir, UID, 'conf')
    expect(await readFile(join(conf, 'etc/app.conf'), 'utf8')).toBe('port=80')
    expect(await readFile(join(conf, 'level'), 'utf8')).toBe('debug')
    expect(mode(join(conf, 'etc/app.conf'))).toBe('600')
    expect(mode(join(conf, 'level'))).toBe('644')
    expect(await readlink(join(conf, 'level'))).toBe('..data/level')
    const sec = secretVolumePath(deps.rootDir, UID, 'sec')
    expect(await readFile(join(sec, 'password'), 'utf8')).toBe('s3cr3t')
    expect(mode(join(sec, 'password'))).toBe('400')
    // Only the payload dir, the ..data link and the visible names: nothing half-written.
    expect((await readdir(conf)).filter((e) => !e.startsWith('..payload-')).sort()).toEqual(['..data', 'etc', 'level'])
  })

  it('rewrites the files when the ConfigMap changes and drops keys that are gone', async () => {
    const configMaps = [cm({a: '1', b: '2'})]
    const volumes: Volume[] = [{name: 'conf', configMap: {name: 'app-config'}}]
    const mounts = [{name: 'conf', mountPath: '/c'}]
    const first = setup(volumes, mounts, configMaps)
    await first.prepare()
    const dir = configMapVolumePath(first.deps.rootDir, UID, 'conf')
    const payload1 = await readlink(join(dir, '..data'))

    // Unchanged: nothing is rewritten.
    await first.prepare()
    expect(await readlink(join(dir, '..data'))).toBe(payload1)

    first.deps.objects = createObjectStore([cm({a: 'one', c: '3'})], [])
    await first.prepare()
    expect(await readlink(join(dir, '..data'))).not.toBe(payload1)
    expect(await readFile(join(dir, 'a'), 'utf8')).toBe('one')
    expect(await readFile(join(dir, 'c'), 'utf8')).toBe('3')
    expect(existsSync(join(dir, 'b'))).toBe(false)
    expect((await readdir(dir)).sort()).toEqual(['..data', await readlink(join(dir, '..data')), 'a', 'c'].sort())
  })

  it('fails with a ConfigError naming the volume when the ConfigMap is missing', async () => {
    const {prepare} = setup([{name: 'conf', configMap: {name: 'app-config'}}], [{name: 'conf', mountPath: '/c'}])
    await expect(prepare()).rejects.toThrow(ConfigError)
    await expect(prepare()).rejects.toThrow('volume "conf": configmap "app-config" not found')
  })

  it('writes an empty volume for a missing optional ConfigMap', async () => {
    const {deps, prepare} = setup([{name: 'conf', configMap: {name: 'app-config', optional: true}}], [{name: 'conf', mountPath: '/c'}])
    await prepare()
    expect(await readdir(join(configMapVolumePath(deps.rootDir, UID, 'conf'), '..data'))).toEqual([])
  })

  it('fails on a hostPath of the wrong type', async () => {
    const {prepare} = setup([{name: 'sock', hostPath: {path: join(work, 'file'), type: 'Socket'}}], [{name: 'sock', mountPath: '/s'}])
    await expect(prepare()).rejects.toThrow(/volume "sock": hostPath type check failed: .* is not a socket/)
  })

  it('creates world-writable emptyDir directories, only for volumes the container mounts', async () => {
    const {deps, prepare} = setup(
      [
        {name: 'cache', emptyDir: {}},
        {name: 'unused', emptyDir: {}},
        {name: 'conf', configMap: {name: 'missing'}},
      ],
      [{name: 'cache', mountPath: '/cache'}],
    )
    await prepare()
    expect(mode(emptyDirPath(deps.rootDir, UID, 'cache'))).toBe('777')
    expect(existsSync(emptyDirPath(deps.rootDir, UID, 'unused'))).toBe(false)
  })

  it('makes an emptyDir directory with the mode it asks for (v1.37 emptyDir.mode), sticky bit included', async () => {
    const withMode = (name: string, m: number): Volume => ({name, emptyDir: {mode: m} as NonNullable<Volume['emptyDir']>})
    const {deps, prepare} = setup([withMode('tmp', 0o1777), withMode('private', 0o750)], [{name: 'tmp', mountPath: '/tmp'}, {name: 'private', mountPath: '/p'}])
    await prepare()
    await prepare()
    const bits = (name: string) => (statSync(emptyDirPath(deps.rootDir, UID, name)).mode & 0o7777).toString(8)
    expect([bits('tmp'), bits('private')]).toEqual(['1777', '750'])
  })

  it.runIf(isRoot)('mounts a Memory emptyDir\'s tmpfs with the mode it asks for', async () => {
    const {deps, prepare} = setup([{name: 'mem', emptyDir: {medium: 'Memory', mode: 0o750} as NonNullable<Volume['emptyDir']>}], [{name: 'mem', mountPath: '/m'}])
    const dir = emptyDirPath(deps.rootDir, UID, 'mem')
    try {
      await prepare()
      const info = (await readFile('/proc/self/mountinfo', 'utf8')).split('\n').find((l) => l.split(' ')[4] === dir)
      expect(info).toContain('mode=750')
      expect((statSync(dir).mode & 0o7777).toString(8)).toBe('750')
    } finally {
      await cleanupVolumes(deps, UID)
    }
  })

  it.each<[string, Volume]>([
    ['a secret', {name: 'mem', secret: {secretName: 'creds'}}],
    ['a projected secret', {name: 'mem', projected: {sources: [{secret: {name: 'creds'}}]}}],
    ['an emptyDir of medium Memory', {name: 'mem', emptyDir: {medium: 'Memory', sizeLimit: '1Mi'}}],
  ])('%s volume that cannot get a tmpfs fails, naming the volume, and nothing is written to disk', async (_what, volume) => {
    const failing: Mounter = {
      mountTmpfs: () => Promise.reject(new Error('mount: only root can do that')),
      unmount: () => Promise.resolve(),
      mountsUnder: () => Promise.resolve([]),
    }
    warnings.length = 0
    const {deps, prepare} = setup([volume], [{name: 'mem', mountPath: '/m'}], [], {fs: {...nodeHostFs, ...failing}})
    const err = await prepare().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as Error).message).toMatch(/^volume "mem": MountVolume.SetUp failed: it must be memory-backed and a tmpfs cannot be mounted on .*: mount: only root can do that/)
    const volumes = join(deps.rootDir, 'pods', UID, 'volumes')
    const files = existsSync(volumes) ? await readdir(volumes, {recursive: true, withFileTypes: true}) : []
    expect(files.filter((f) => f.isFile()).map((f) => f.name)).toEqual([])
  })

  it.runIf(isRoot)('keeps secret volumes in memory (tmpfs) and configMap volumes on disk', async () => {
    const {deps, prepare} = setup(
      [
        {name: 'sec', secret: {secretName: 'creds'}},
        {name: 'conf', configMap: {name: 'app-config'}},
      ],
      [
        {name: 'sec', mountPath: '/s'},
        {name: 'conf', mountPath: '/c'},
      ],
      [cm({a: '1'})],
    )
    await prepare()
    await prepare()
    const sec = secretVolumePath(deps.rootDir, UID, 'sec')
    expect(await nodeHostFs.mountsUnder(deps.rootDir)).toEqual([{path: sec, fsType: 'tmpfs'}])
    expect(await readFile(join(sec, 'password'), 'utf8')).toBe('s3cr3t')
  })

  it('refreshProjectedVolumes rewrites changed data for every container and only logs problems', async () => {
    warnings.length = 0
    const {deps, sp} = setup([{name: 'conf', configMap: {name: 'app-config'}}, {name: 'data', hostPath: {path: join(work, 'nope'), type: 'Directory'}}], [
      {name: 'conf', mountPath: '/c'},
      {name: 'data', mountPath: '/d'},
    ], [cm({a: '1'})])
    await refreshProjectedVolumes(deps, sp.pod)
    const dir = configMapVolumePath(deps.rootDir, UID, 'conf')
    expect(await readFile(join(dir, 'a'), 'utf8')).toBe('1')
    deps.objects = createObjectStore([cm({a: '2'})], [])
    await refreshProjectedVolumes(deps, sp.pod)
    expect(await readFile(join(dir, 'a'), 'utf8')).toBe('2')
    expect(warnings).toEqual([])
    deps.objects = createObjectStore([], [])
    await refreshProjectedVolumes(deps, sp.pod)
    expect(warnings).toEqual(['Cannot refresh volume'])
    expect(await readFile(join(dir, 'a'), 'utf8')).toBe('2')
  })

  it.runIf(isRoot)('mounts a tmpfs for medium Memory once, and cleanupVolumes unmounts it', async () => {
    const {deps, prepare} = setup([{name: 'mem', emptyDir: {medium: 'Memory', sizeLimit: '16Mi'}}], [{name: 'mem', mountPath: '/m'}])
    const dir = emptyDirPath(deps.rootDir, UID, 'mem')
    try {
      await prepare()
      await prepare()
      const mounts = await nodeHostFs.mountsUnder(dir)
      expect(mounts).toEqual([{path: dir, fsType: 'tmpfs'}])
      const info = (await readFile('/proc/self/mountinfo', 'utf8')).split('\n').find((l) => l.split(' ')[4] === dir)
      expect(info).toContain('size=16384k')
      await writeFile(join(dir, 'x'), 'in memory')
      expect(mode(dir)).toBe('777')
    } finally {
      await cleanupVolumes(deps, UID)
    }
    expect(await nodeHostFs.mountsUnder(dir)).toEqual([])
    expect(existsSync(join(dir, 'x'))).toBe(false)
  })
})

describe('cleanupVolumes', () => {
  it('unmounts every mount under the pod dir, deepest first, and keeps going after a failure', async () => {
    const unmounted: string[] = []
    const mounter: Mounter = {
      mountTmpfs: () => Promise.resolve(),
      unmount: (p) => {
        unmounted.push(p)
        return p.endsWith('/bad') ? Promise.reject(new Error('busy')) : Promise.resolve()
      },
      mountsUnder: () =>
        Promise.resolve([
          {path: '/r/pods/u/volumes/kubernetes.io~empty-dir/bad', fsType: 'tmpfs'},
          {path: '/r/pods/u/volumes/kubernetes.io~empty-dir/a', fsType: 'tmpfs'},
        ]),
    }
    const warned: string[] = []
    const logger: Logger = {info: () => {}, warn: (m) => warned.push(m), error: () => {}, debug: () => {}, enabled: () => false}
    await cleanupVolumes({rootDir: '/r', fs: {...nodeHostFs, ...mounter}, logger}, 'u')
    expect(unmounted).toEqual(['/r/pods/u/volumes/kubernetes.io~empty-dir/bad', '/r/pods/u/volumes/kubernetes.io~empty-dir/a'])
    expect(warned).toEqual(['Failed to unmount volume'])
  })
})

