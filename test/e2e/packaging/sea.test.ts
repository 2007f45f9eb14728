// The single executable (scripts/sea.mjs): built once here, installed as the README says, and run
// with a PATH that holds nothing but itself. It must behave exactly like bin/run.js: the same
// output, errors and exit codes for every command's help, bad input, completion and a real pod.
// Needs the build and the e2e runtime.
import {spawn} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BUSYBOX, ROOT, eventually, makeDirs} from '../support.js'
import {memoryVolumeMounts, memoryVolumesYaml, mountsUnder} from '../mounts.js'
import {MANIFESTS, downAll, globals, helloRunning, must, packageBuilt, run, watchManifests, type Place} from './support.js'

const dirs = makeDirs()
const place: Place = {node: 'pkg-sea', rootDir: dirs.rootDir, logsDir: dirs.logsDir}
const exe = join(ROOT, `dist/kube-node-${process.platform}-${process.arch}`)
const binDir = join(dirs.work, 'bin')
const hello = join(ROOT, 'manifests/hello.yaml')
const commands = Object.keys((JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}).commands)

// Both get only this environment; HOME is private because completion writes a cache there.
const env = {NO_COLOR: '1', OCLIF_COLUMNS: '80', HOME: join(dirs.work, 'home')}
/** The single executable, found on a PATH that has nothing else. */
const sea = (args: string[], extra: Record<string, string> = {}) => run('kube-node', args, {cleanEnv: true, env: {...env, ...extra, PATH: binDir}})
/** The repository's bin/run.js, its output as the executable would print it. */
const node = async (args: string[], extra: Record<string, string> = {}) => {
  const r = await run(process.execPath, [join(ROOT, 'bin/run.js'), ...args], {cleanEnv: true, env: {...env, ...extra, PATH: '/usr/bin:/bin'}})
  return {...r, stdout: asEmbedded(r.stdout), stderr: asEmbedded(r.stderr)}
}
// The executable embeds the Node that packaging/node pins, not the one running the tests, and says
// so where kube-node names its Node (the version line of --help and --version).
const lock = JSON.parse(readFileSync(join(ROOT, 'packaging/node/package-lock.json'), 'utf8')) as {packages: Record<string, {version: string}>}
const embedded = `v${lock.packages[`node_modules/node-${process.platform}-${process.arch}`]!.version}`
const asEmbedded = (text: string) => text.replaceAll(`node-${process.version}`, `node-${embedded}`)

beforeAll(async () => {
  await packageBuilt('sea')
  mkdirSync(binDir, {recursive: true})
  mkdirSync(env.HOME, {recursive: true})
  // The README's install.
  await must('install', ['-m', '0755', exe, join(binDir, 'kube-node')])
  await downAll(place)
}, 300_000)
afterAll(async () => {
  await downAll(place)
  dirs.cleanup()
})

describe('the single executable', () => {
  it('runs where no node is on PATH, and reports what bin/run.js reports', async () => {
    const which = await run('/bin/sh', ['-c', 'command -v node'], {cleanEnv: true, env: {PATH: binDir}})
    expect(which.code).not.toBe(0)
    const r = await sea(['version', '-o', 'json', ...globals(place)])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe((await node(['version', '-o', 'json', ...globals(place)])).stdout)
    expect(JSON.parse(r.stdout)).toMatchObject({runtime: {runtimeName: 'containerd'}})
  })

  it('embeds the pinned LTS Node, and V8 takes the code cache built for it', async () => {
    const r = await sea(['--version'], {KUBE_NODE_DEBUG_CODE_CACHE: '1'})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(`node-${embedded}`)
    expect(r.stderr).toBe('code cache accepted\n')
  })

  it.each([[''], ...commands.map((c) => [c])])('`%s --help` is byte for byte the help of bin/run.js', async (id) => {
    const args = [...(id ? id.split(':') : []), '--help']
    const expected = await node(args)
    expect(expected.code).toBe(0)
    const fast = await sea(args)
    expect([fast.code, fast.stdout, fast.stderr]).toEqual([0, expected.stdout, ''])
    // oclif's own rendering, inside the executable.
    const oclif = await sea(args, {KUBE_NODE_NO_HELP_CACHE: '1'})
    expect([oclif.code, oclif.stdout, oclif.stderr]).toEqual([0, expected.stdout, ''])
  })

  it.each([
    ['the version flag', ['--version']],
    ['an unknown command', ['nonexistent']],
    ['an unknown flag', ['version', '--bogus']],
    ['a bad flag value', ['run', '-f', hello, '--wait', 'sometimes']],
    ['a valid manifest', ['validate', '-f', hello]],
    ['an invalid manifest', ['validate', '-f', join(ROOT, 'package.json')]],
    ['a pod that is not there', ['get', 'pods', 'nonexistent', ...globals(place)]],
    ['a runtime that is not there', ['get', 'pods', 'nonexistent', '--root-dir', '/nonexistent', '--runtime-endpoint', 'unix:///nonexistent.sock']],
    ['completion instructions', ['autocomplete', 'bash']],
    ['a completion script', ['autocomplete', 'script', 'bash']],
  ])('%s: the same exit code and output as bin/run.js', async (_what, args) => {
    const expected = await node(args)
    const r = await sea(args)
    expect({code: r.code, stdout: r.stdout, stderr: r.stderr}).toEqual({code: expected.code, stdout: expected.stdout, stderr: expected.stderr})
  })

  it('exits 2 on an unknown command or flag', async () => {
    expect((await sea(['nonexistent'])).code).toBe(2)
    expect((await sea(['version', '--bogus'])).code).toBe(2)
  })

  it('runs the quickstart pod and takes it down', async () => {
    const r = await sea(['run', '-f', hello, ...globals(place)])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(helloRunning(place))
    // The repository's build sees the same pod.
    expect((await node(['get', 'pods', ...globals(place)])).stdout).toMatch(helloRunning(place))
    const down = await sea(['down', '-f', hello, ...globals(place)])
    expect(down.code, down.stderr).toBe(0)
    expect((await node(['get', 'pods', '-o', 'name', ...globals(place)])).stdout).toBe('')
  })

  const memoryMounts = [
    {volume: 'kubernetes.io~empty-dir/mem', fsType: 'tmpfs', size: '8192k'},
    {volume: 'kubernetes.io~projected/proj', fsType: 'tmpfs', size: undefined},
    {volume: 'kubernetes.io~secret/sec', fsType: 'tmpfs', size: undefined},
  ]

  it('run puts secret, projected and Memory emptyDir volumes on tmpfs mounts, and down removes them', async () => {
    const file = join(dirs.work, 'vols.yaml')
    writeFileSync(file, memoryVolumesYaml('vols', BUSYBOX))
    const r = await sea(['run', '-f', file, '--wait', 'running', ...globals(place)])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).not.toMatch(/Cannot mount|directory on disk|dynamic import/i)
    expect(memoryVolumeMounts(place.rootDir)).toEqual(memoryMounts)
    const down = await sea(['down', '-f', file, ...globals(place)])
    expect(down.code, down.stderr).toBe(0)
    expect(mountsUnder(place.rootDir)).toEqual([])
    const pods = join(place.rootDir, 'pods')
    expect(existsSync(pods) ? readdirSync(pods) : []).toEqual([])
  })

  it('watch puts them on tmpfs mounts too', async () => {
    const manifests = join(dirs.work, 'vols-watch')
    mkdirSync(manifests, {recursive: true})
    writeFileSync(join(manifests, 'vols.yaml'), memoryVolumesYaml('vols', BUSYBOX))
    const watch = spawn('kube-node', ['watch', manifests, '--port', '0', '--healthz-port', '0', ...globals(place)], {env: {...env, PATH: binDir}, stdio: ['ignore', 'ignore', 'pipe']})
    let log = ''
    watch.stderr.on('data', (d: Buffer) => (log += d.toString()))
    const exited = new Promise<number | null>((r) => watch.on('exit', (code) => r(code)))
    try {
      await eventually(() => (memoryVolumeMounts(place.rootDir).length === 3 ? true : undefined), 60_000, `three tmpfs mounts (stderr: ${log})`)
      expect(memoryVolumeMounts(place.rootDir)).toEqual(memoryMounts)
      watch.kill('SIGTERM')
      expect(await exited).toBe(0)
      expect(log).not.toMatch(/Cannot mount|directory on disk|dynamic import/i)
    } finally {
      watch.kill('SIGKILL')
    }
    const down = await sea(['down', '--all', ...globals(place)])
    expect(down.code, down.stderr).toBe(0)
    expect(mountsUnder(place.rootDir)).toEqual([])
  })

  it('watches /etc/kubernetes/manifests', () => watchManifests(['kube-node', 'watch', MANIFESTS], place, {PATH: binDir}))
})
