// Secret, projected and `medium: Memory` emptyDir volumes through the shipped bin/run.js, on a real
// containerd: each is a tmpfs mount on the host (the emptyDir with its sizeLimit as the tmpfs
// size), the container reads the secret from it, and `down` leaves no mount and no volume dir.
// The single executable is held to the same in packaging/sea.test.ts.
import {spawn} from 'node:child_process'
import {existsSync, mkdirSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BUSYBOX, eventually, knArgs, knAs, makeDirs, writeManifest, ENDPOINT} from './support.js'
import {memoryVolumeMounts, memoryVolumesYaml, mountsUnder} from './mounts.js'

const NODE = 'memvol'
const dirs = makeDirs()
const kn = (args: string[]) => knAs(NODE, dirs, args)
const manifest = join(dirs.work, 'manifests')

// The emptyDir's tmpfs is as large as its sizeLimit; the others have the kernel's default size,
// which mountinfo does not show.
const EXPECTED = [
  {volume: 'kubernetes.io~empty-dir/mem', fsType: 'tmpfs', size: '8192k'},
  {volume: 'kubernetes.io~projected/proj', fsType: 'tmpfs', size: undefined},
  {volume: 'kubernetes.io~secret/sec', fsType: 'tmpfs', size: undefined},
]

beforeAll(async () => {
  mkdirSync(manifest, {recursive: true})
  writeManifest(manifest, 'vols.yaml', memoryVolumesYaml('vols', BUSYBOX))
  await kn(['down', '--all'])
})
afterAll(async () => {
  await kn(['down', '--all'])
  for (const m of mountsUnder(dirs.rootDir).reverse()) spawn('umount', ['-l', m.path])
  dirs.cleanup()
})

describe('memory-backed volumes through bin/run.js (real containerd)', () => {
  it('run: secret, projected and Memory emptyDir are tmpfs mounts; down removes them', async () => {
    const file = join(manifest, 'vols.yaml')
    const r = await kn(['run', '-f', file, '--wait', 'running'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).not.toMatch(/Cannot mount|directory on disk|dynamic import/i)
    expect(memoryVolumeMounts(dirs.rootDir)).toEqual(EXPECTED)
    // The container sees the files kube-node wrote into the tmpfs.
    const cat = await kn(['exec', 'vols', '--', 'cat', '/sec/password', '/proj/podname'])
    expect(cat.stdout).toBe(`s3cr3tvols-${NODE}`)
    // The tmpfs holds at most its sizeLimit: writing past 8Mi fails inside the container.
    const fill = await kn(['exec', 'vols', '--', 'sh', '-c', 'dd if=/dev/zero of=/mem/fill bs=1M count=16 2>&1; echo rc=$?'])
    expect(fill.stdout).toMatch(/No space left on device/)

    const down = await kn(['down', '-f', file])
    expect(down.code, down.stderr).toBe(0)
    expect(mountsUnder(dirs.rootDir)).toEqual([])
    // The pod's directory, volumes included, is gone.
    expect(existsSync(join(dirs.rootDir, 'pods')) ? readdirSync(join(dirs.rootDir, 'pods')) : []).toEqual([])
  }, 120_000)

  it('watch: the same mounts while it runs the pod, gone after down', async () => {
    const child = spawn(process.execPath, knArgs(dirs, ['watch', manifest, '--file-check-frequency', '1s', '--port', '0', '--healthz-port', '0'], ENDPOINT, NODE), {
      env: {...process.env, NO_COLOR: '1'},
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
    try {
      await eventually(() => (memoryVolumeMounts(dirs.rootDir).length === 3 ? true : undefined), 60_000, `three tmpfs mounts (stderr: ${stderr})`)
      expect(memoryVolumeMounts(dirs.rootDir)).toEqual(EXPECTED)
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
      expect(stderr).not.toMatch(/Cannot mount|directory on disk|dynamic import/i)
    } finally {
      child.kill('SIGKILL')
    }
    const down = await kn(['down', '--all'])
    expect(down.code, down.stderr).toBe(0)
    expect(mountsUnder(dirs.rootDir)).toEqual([])
  }, 120_000)
})
