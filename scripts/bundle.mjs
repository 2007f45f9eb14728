// Build step after tsc and the oclif manifest: bundles the CLI (src/entry/main.ts, the oclif
// runtime, every command and every dependency) into one CommonJS file, dist/kube-node.cjs, so a
// start reads one file and V8 can keep one code cache for it (scripts/code-cache.mjs). The rest of
// dist/ (tsc's per-module output) stays for tests, benchmarks and the manifest.
import {readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createRequire, isBuiltin} from 'node:module'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {build} from 'esbuild'
import {lazyBuiltins} from './lazy-builtins.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

// package.json as oclif needs it at run time. The completion commands are bundled below, so the
// plugin that carries them is not loaded as a plugin.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const {plugins: _plugins, ...oclif} = pkg.oclif
const pjson = {name: pkg.name, version: pkg.version, description: pkg.description, license: pkg.license, bin: pkg.bin, engines: pkg.engines, oclif}
const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'))
// @oclif/plugin-autocomplete exports only its index; its commands are reached by file.
const autocomplete = join(dirname(require.resolve('@oclif/plugin-autocomplete')), 'commands/autocomplete')
const virtual = `
export const PJSON = ${JSON.stringify(pjson)}
export const MANIFEST = ${JSON.stringify(manifest)}
export const AUTOCOMPLETE = {
  autocomplete: () => import(${JSON.stringify(join(autocomplete, 'index.js'))}).then((m) => m.default),
  'autocomplete:create': () => import(${JSON.stringify(join(autocomplete, 'create.js'))}).then((m) => m.default),
  'autocomplete:script': () => import(${JSON.stringify(join(autocomplete, 'script.js'))}).then((m) => m.default),
}
`
const bundleModule = {
  name: 'kube-node-bundle',
  setup(b) {
    b.onResolve({filter: /^kube-node:bundle$/}, () => ({path: 'kube-node:bundle', namespace: 'kube-node'}))
    b.onLoad({filter: /.*/, namespace: 'kube-node'}, () => ({contents: virtual, loader: 'js', resolveDir: root}))
  },
}

// Packages that the bundle replaces with stand-ins of ours (scripts/bundle-stubs/, each file says
// why it is safe): oclif and protobufjs load them at every start, for work kube-node never has
// them do. test/unit/entry/bundle-stubs.test.ts holds each stand-in to what its users call.
const stubs = {
  debug: 'debug.cjs',
  tinyglobby: 'glob.cjs',
  long: 'long.cjs',
  'wsl-utils': 'wsl-utils.mjs',
}
const stubModules = {
  name: 'kube-node-stubs',
  setup(b) {
    b.onResolve({filter: new RegExp(`^(${Object.keys(stubs).join('|')})$`)}, (args) => ({path: join(root, 'scripts/bundle-stubs', stubs[args.path])}))
  },
}

// Built-ins that some files of packages require at load but use only on paths kube-node never or
// rarely takes (the list and why each is safe: scripts/lazy-builtins.mjs). Those requires get a
// lazy view (scripts/bundle-stubs/lazy-builtin.cjs) that loads the module when a member is read.
const lazyModules = {
  name: 'kube-node-lazy-builtins',
  setup(b) {
    const used = new Set()
    const specifiers = [...new Set(lazyBuiltins.map(([, builtin]) => builtin))]
    b.onResolve({filter: new RegExp(`^(${specifiers.join('|')})$`)}, (args) => {
      const pair = lazyBuiltins.find(([file, builtin]) => builtin === args.path && args.importer.endsWith(`/node_modules/${file}`))
      if (!pair) return undefined
      used.add(pair)
      return {path: args.path, namespace: 'kube-node-lazy'}
    })
    const view = join(root, 'scripts/bundle-stubs/lazy-builtin.cjs')
    b.onLoad({filter: /.*/, namespace: 'kube-node-lazy'}, (args) => ({
      contents: `module.exports = require(${JSON.stringify(view)})(() => require(${JSON.stringify(args.path)}))`,
      loader: 'js',
      resolveDir: root,
    }))
    // A listed file that no longer requires its built-in (a new version of the package) would
    // silently keep it eager: fail the build instead, so that the list is looked at again.
    b.onEnd(() => ({
      errors: lazyBuiltins.filter((pair) => !used.has(pair)).map(([file, builtin]) => ({text: `lazy built-ins: ${file} no longer requires ${builtin}; update scripts/lazy-builtins.mjs`})),
    }))
  },
}

// `import('node:…')` of a built-in becomes a require() inside the bundle. The shipped loaders
// (bin/run.js, packaging/sea/entry.cjs) compile the bundle with vm.Script, where an import() that
// leaves the bundle needs the main context's ESM loader, which Node 20 still calls experimental:
// kube-node's own lazy loads (child_process for tmpfs mounts) must never depend on it. The build
// fails if a dynamic import of a built-in is left in the output.
const dynamicBuiltins = {
  name: 'kube-node-dynamic-builtins',
  setup(b) {
    b.onResolve({filter: /.*/}, (args) => (args.kind === 'dynamic-import' && isBuiltin(args.path) ? {path: args.path, namespace: 'kube-node-dynamic-builtin'} : undefined))
    b.onLoad({filter: /.*/, namespace: 'kube-node-dynamic-builtin'}, (args) => ({contents: `module.exports = require(${JSON.stringify(args.path)})`, loader: 'js'}))
    b.onEnd((result) => ({
      errors: Object.entries(result.metafile?.inputs ?? {}).flatMap(([file, input]) =>
        input.imports.filter((i) => i.kind === 'dynamic-import' && i.external && isBuiltin(i.path)).map((i) => ({text: `${file}: import('${i.path}') would leave the bundle; see dynamicBuiltins in scripts/bundle.mjs`})),
      ),
    }))
  },
}

// Outputs of earlier layouts of this step.
for (const old of ['dist/chunks', 'dist/main.js']) rmSync(join(root, old), {recursive: true, force: true})
const result = await build({
  entryPoints: {'kube-node': join(root, 'src/entry/main.ts')},
  outdir: join(root, 'dist'),
  outExtension: {'.js': '.cjs'},
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // Class names are read at run time (error kinds, oclif's ExitError).
  keepNames: true,
  // Less to read and hash at every start.
  minify: true,
  legalComments: 'none',
  // Only oclif's development mode (TypeScript sources) loads these; a build never needs them.
  external: ['typescript', 'ts-node', 'tsx'],
  plugins: [dynamicBuiltins, bundleModule, stubModules, lazyModules],
  // oclif checks at import that Node satisfies its own package.json's engines, reading that file
  // and loading semver at every start; npm checks kube-node's engines when it installs.
  define: {'process.env.OCLIF_DISABLE_ENGINE_WARNING': '"1"'},
  metafile: true,
  logLevel: 'warning',
})
if (process.argv.includes('--sizes')) {
  for (const [file, out] of Object.entries(result.metafile.outputs)) {
    const top = Object.entries(out.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 12)
    console.log(file, out.bytes, top.map(([i, v]) => `${i}:${v.bytesInOutput}`).join(' '))
  }
}
// ASCII only, so V8 keeps the source as a one-byte string: half the memory of a two-byte one.
// esbuild escapes strings but leaves regular expression literals as written (ansis has raw
// control characters in one); a \uXXXX escape means the same character everywhere in JS.
const out = join(root, 'dist/kube-node.cjs')
const text = readFileSync(out, 'utf8')
const ascii = text.replace(/[^\x00-\x7f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
if (ascii !== text) writeFileSync(out, ascii)
const bytes = Buffer.byteLength(ascii)
console.log(`bundle: dist/kube-node.cjs (${(bytes / 1024).toFixed(0)} KiB)`)
