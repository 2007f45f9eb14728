// Build step after tsc: bundles the CLI (src/cli/main.ts, the oclif runtime, and every command)
// into dist/main.js, dist/commands/** and shared chunks in dist/chunks/, replacing tsc's output for
// those entry files. A command's start then reads a handful of files instead of hundreds of
// modules, and loads only the chunks it uses (oclif still imports one command file per run, from
// oclif.manifest.json). The rest of dist/ (tsc's per-module output) stays for tests and benchmarks.
import {readdirSync, rmSync, statSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {build} from 'esbuild'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) yield* walk(p)
    else if (p.endsWith('.ts')) yield p
  }
}

const entryPoints = {main: join(root, 'src/cli/main.ts')}
for (const file of walk(join(root, 'src/commands'))) entryPoints[relative(join(root, 'src'), file).replace(/\.ts$/, '')] = file

// Chunk names carry a content hash: old ones would pile up.
rmSync(join(root, 'dist/chunks'), {recursive: true, force: true})
const result = await build({
  entryPoints,
  outdir: join(root, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // Class names are read at run time (error kinds, oclif's ExitError).
  keepNames: true,
  // Less to parse at every start: V8 pre-parses every byte of a module it loads.
  minify: true,
  legalComments: 'none',
  // CommonJS dependencies (oclif, grpc-js) call require() for Node's own modules.
  banner: {js: "import {createRequire as __kubeNodeRequire} from 'node:module';const require=__kubeNodeRequire(import.meta.url);"},
  // Only oclif's development mode (TypeScript sources) loads these; a build never needs them.
  external: ['typescript', 'ts-node', 'tsx'],
  metafile: true,
  logLevel: 'warning',
})
const outputs = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'))
if (process.argv.includes('--sizes')) {
  for (const [file, out] of Object.entries(result.metafile.outputs)) {
    const top = Object.entries(out.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 8)
    console.log(file, out.bytes, top.map(([i, v]) => `${i}:${v.bytesInOutput}`).join(' '))
  }
}
console.log(`bundle: ${outputs.length} files (${Object.keys(entryPoints).length} entries) in dist/`)
