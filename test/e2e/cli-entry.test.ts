// The built CLI's entry: `--help` printed from the text the build rendered (without loading oclif)
// must be exactly oclif's own help, for kube-node and every command; `--validate` works on every
// command that reads manifests; built-ins the bundle loads lazily stay unloaded. Needs the build,
// and the runtime for the last block only.
import {spawnSync} from 'node:child_process'
import {cpSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {ENDPOINT, ROOT, knArgs, makeDirs, podYaml, writeManifest} from './support.js'

const dirs = makeDirs()
afterAll(() => dirs.cleanup())

function cli(args: string[], env: Record<string, string> = {}): {status: number | null; stdout: string; stderr: string} {
  return spawnSync(process.execPath, [join(ROOT, 'bin/run.js'), ...args], {encoding: 'utf8', env: {...process.env, NO_COLOR: '1', OCLIF_COLUMNS: '80', ...env}})
}

const commands = Object.keys((JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}).commands)

describe('the built CLI entry', () => {
  it.each([[''], ...commands.map((c) => [c])])('`%s --help` from the build is oclif\'s own help', (id) => {
    const words = id ? id.split(':') : []
    const fast = cli([...words, '--help'])
    const oclif = cli([...words, '--help'], {KUBE_NODE_NO_HELP_CACHE: '1'})
    expect(fast.status).toBe(0)
    expect(fast.stdout).toBe(oclif.stdout)
    expect(fast.stdout).not.toContain('{{runtime}}')
  })

  it('help for words that are no command goes to oclif', () => {
    const r = cli(['logs', 'web', '--help'])
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('USAGE')
  })

  it.each([['validate'], ['plan'], ['run']])('%s refuses an unknown field by default, before dialling the runtime', (command) => {
    const file = join(dirs.work, `typo-${command}.yaml`)
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: t}\nspec:\n  containers: [{name: c, image: busybox:1.36, resouces: {}}]\n')
    // An unreachable runtime: validation must fail before it is dialled.
    const r = cli([command, '-f', file, '--runtime-endpoint', 'unix:///nonexistent.sock', '--root-dir', dirs.rootDir])
    expect(r.status).toBe(2)
    expect(r.stderr).toContain('field spec.containers[0].resouces: unknown field (did you mean "resources"?)')
  })

  it('validate --validate warn prints a warning and exits 0; ignore prints nothing', () => {
    const file = join(dirs.work, 'typo.yaml')
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: t}\nspec:\n  containers: [{name: c, image: busybox:1.36, resouces: {}}]\n')
    const warn = cli(['validate', '-f', file, '--validate', 'warn'])
    expect(warn.status).toBe(0)
    expect(warn.stderr).toMatch(/Unknown field in manifest.*spec\.containers\[0\]\.resouces/)
    const ignore = cli(['validate', '-f', file, '--validate', 'ignore'])
    expect([ignore.status, ignore.stderr]).toEqual([0, ''])
    const bad = cli(['validate', '-f', file, '--validate', 'lenient'])
    expect(bad.status).toBe(2)
  })

  it('a reader that starts late still gets every line of a long output', () => {
    // 1000 pods on a node with a long name: over 100 KiB, more than a pipe holds, so kube-node
    // must wait for the reader before it ends.
    const node = 'a-node-name-long-enough-to-make-every-line-of-output-longer'
    const file = join(dirs.work, 'many.yaml')
    writeFileSync(file, Array.from({length: 1000}, (_, i) => `apiVersion: v1\nkind: Pod\nmetadata: {name: p${i}}\nspec:\n  containers: [{name: c, image: busybox:1.36}]\n`).join('---\n'))
    const r = spawnSync('bash', ['-o', 'pipefail', '-c', '"$0" "$1" validate -f "$2" --node-name "$3" --max-pods 1000 | (sleep 1; cat)', process.execPath, join(ROOT, 'bin/run.js'), file, node], {encoding: 'utf8', maxBuffer: 1 << 22})
    expect(r.status).toBe(0)
    expect(Buffer.byteLength(r.stdout)).toBeGreaterThan(100 * 1024)
    const lines = r.stdout.split('\n')
    expect(lines.filter((l, i) => l === `pod/p${i}-${node} valid (${file}, document ${i})`)).toHaveLength(1000)
    expect(lines.at(-1)).toBe('')
  })

  describe('the bundle stands alone', () => {
    // bin/ and the bundle copied with no node_modules, package.json or manifest beside them.
    const alone = join(dirs.work, 'alone')
    mkdirSync(join(alone, 'dist'), {recursive: true})
    cpSync(join(ROOT, 'bin'), join(alone, 'bin'), {recursive: true})
    cpSync(join(ROOT, 'dist/kube-node.cjs'), join(alone, 'dist/kube-node.cjs'))
    const aloneCli = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [join(alone, 'bin/run.js'), ...args], {encoding: 'utf8', cwd: alone, env: {...process.env, NO_COLOR: '1', OCLIF_COLUMNS: '80', KUBE_NODE_NO_HELP_CACHE: '1', ...env}})

    it('runs every command and its help from the one file, without its code cache', () => {
      for (const id of commands) {
        const r = aloneCli([...id.split(':'), '--help'])
        expect(r.stderr).toBe('')
        expect(r.stdout).toBe(cli([...id.split(':'), '--help'], {KUBE_NODE_NO_HELP_CACHE: '1'}).stdout)
      }
      const r = aloneCli(['validate', '-f', join(ROOT, 'manifests/hello.yaml')])
      expect(r.status).toBe(0)
      expect(r.stdout).toContain('hello')
    })

    it('a code cache that is not V8\'s (corrupt, or from another Node) is ignored', () => {
      writeFileSync(join(alone, 'dist/kube-node.cjs.cache'), Buffer.alloc(4096, 7))
      const r = aloneCli(['validate', '-f', join(ROOT, 'manifests/hello.yaml')])
      expect(r.stderr).toBe('')
      expect(r.status).toBe(0)
      expect(aloneCli(['nonexistent']).status).toBe(2)
    })

    it('carries our stand-ins for debug, tinyglobby and long (scripts/bundle-stubs), not the packages', () => {
      const text = readFileSync(join(alone, 'dist/kube-node.cjs'), 'utf8')
      expect(text).toContain('file globbing (tinyglobby) is not part of the bundle')
      // Long.js's WebAssembly module (bytes "\0asm") and a message of picomatch's, which tinyglobby loads.
      expect(text).not.toContain('new WebAssembly.Module(new Uint8Array([0,97,115,109')
      expect(text).not.toContain('Expected pattern to be a non-empty string')
      // oclif's tracers come from the debug stand-in, which prints nothing whatever DEBUG says.
      const r = aloneCli(['validate', '-f', join(ROOT, 'manifests/hello.yaml')], {DEBUG: '*'})
      expect([r.status, r.stderr]).toEqual([0, ''])
    })

    it('prints shell completion from the bundle', () => {
      const r = aloneCli(['autocomplete', 'script', 'bash'])
      expect(r.status).toBe(0)
      expect(r.stdout).toContain('kube-node')
    })
  })

  describe('built-ins that the bundle loads only when used (scripts/lazy-builtins.mjs)', () => {
    // A preload that writes, as the process exits, the built-in modules it loaded.
    const preload = join(dirs.work, 'loaded.cjs')
    writeFileSync(preload, `process.once('exit', () => require('node:fs').writeFileSync(process.env.KN_LOADED, JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)))))`)
    const node = 'e2e-lazy'
    function traced(args: string[]): {status: number | null; stdout: string; loaded: string[]} {
      const out = join(dirs.work, 'loaded.json')
      const r = spawnSync(process.execPath, ['-r', preload, ...knArgs(dirs, args, ENDPOINT, node)], {encoding: 'utf8', env: {...process.env, NO_COLOR: '1', KN_LOADED: out}})
      return {status: r.status, stdout: r.stdout, loaded: JSON.parse(readFileSync(out, 'utf8')) as string[]}
    }
    afterAll(() => traced(['down', '--all']))

    it.each<[string, string[], string[], string]>([
      ['version', ['version'], ['child_process', 'dns', 'perf_hooks', 'readline', 'zlib'], 'runtime API: v1'],
      ['get pods', ['get', 'pods'], ['child_process', 'dns', 'perf_hooks', 'readline', 'zlib'], ''],
      ['validate', ['validate', '-f', join(ROOT, 'manifests/hello.yaml')], ['child_process', 'perf_hooks', 'readline'], 'hello'],
    ])('%s works without loading %j', (_name, args, lazy, output) => {
      const r = traced(args)
      expect(r.status).toBe(0)
      expect(r.stdout).toContain(output)
      expect(r.loaded.filter((m) => lazy.includes(m))).toEqual([])
    })

    it('run starts a pod over the unix socket without loading child_process, dns, perf_hooks or zlib', () => {
      const r = traced(['run', '-f', writeManifest(dirs.work, 'lazy.yaml', podYaml('lazy'))])
      expect(r.status).toBe(0)
      expect(r.loaded.filter((m) => ['child_process', 'dns', 'perf_hooks', 'zlib'].includes(m))).toEqual([])
      const pods = traced(['get', 'pods'])
      expect(pods.stdout).toMatch(/lazy\S*\s+1\/1\s+Running/)
    })
  })

  // oclif reads a missing argument from stdin when stdin is no terminal: a script piping into
  // kube-node must not have its input taken for a pod name.
  it('piped input is never taken for a missing pod name', () => {
    const piped = (args: string[]): {status: number | null; stdout: string; stderr: string} =>
      spawnSync(process.execPath, knArgs(dirs, args, ENDPOINT, 'stdinnode'), {encoding: 'utf8', input: 'web\n', env: {...process.env, NO_COLOR: '1'}})
    const get = piped(['get', 'pods', '-o', 'json'])
    expect(get.status, get.stderr).toBe(0)
    expect(JSON.parse(get.stdout)).toMatchObject({kind: 'PodList', items: []})
    const logs = piped(['logs'])
    expect(logs.status).toBe(2)
    expect(logs.stderr).toBe('error: logs needs a pod name, e.g. kube-node logs web (or a selector: -l app=web)\n')
  })
})
