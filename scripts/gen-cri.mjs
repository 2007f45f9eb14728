// Regenerates the TypeScript types of proto/api.proto into src/cri/grpc/generated.
// proto-loader-gen-types writes relative imports without a suffix, which NodeNext module
// resolution rejects (TS2835); this script runs the generator, then adds `.js` to them.
import {spawnSync} from 'node:child_process'
import {readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'src/cri/grpc/generated')
const bin = join(root, 'node_modules/.bin/proto-loader-gen-types')

// Start clean so that a message removed from the proto leaves no stale file behind.
rmSync(outDir, {recursive: true, force: true})
const args = [
  '--longs=String', '--enums=String', '--defaults', '--oneofs', '--grpcLib=@grpc/grpc-js',
  `--outDir=${outDir}`, 'proto/api.proto',
]
const run = spawnSync(bin, args, {cwd: root, stdio: 'inherit'})
if (run.status !== 0) process.exit(run.status ?? 1)

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) yield* walk(p)
    else if (p.endsWith('.ts')) yield p
  }
}

let files = 0
for (const file of walk(outDir)) {
  const text = readFileSync(file, 'utf8')
  const fixed = text.replace(/(from\s+')(\.{1,2}\/[^']+?)(?<!\.js)(')/g, '$1$2.js$3')
  if (fixed !== text) writeFileSync(file, fixed)
  files++
}
console.log(`gen-cri: ${files} files in ${outDir}`)
