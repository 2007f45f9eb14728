// `npm run build:sea`: the single executable, dist/kube-node-<platform>-<arch>, that needs no Node on
// the host. It is a copy of the Node running this script with a single-executable blob injected:
// packaging/sea/entry.cjs as the main script and, as assets, what `npm run build` made: the bundle
// (dist/kube-node.cjs), its V8 code cache (valid because the executable is this very Node) and the
// help pages (dist/help). Linux only: other platforms need their own injection and signing steps.
import {spawnSync} from 'node:child_process'
import {chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const work = join(dist, 'sea')
const output = join(dist, `kube-node-${process.platform}-${process.arch}`)
// The fuse Node looks for to know that a blob was injected (Node's SEA documentation).
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'

function fail(message) {
  console.error(`sea: ${message}`)
  process.exit(1)
}

/** Runs a build tool; its chatter is shown only when it fails. `install`: where to get it. */
function tool(command, args, install) {
  const r = spawnSync(command, args, {encoding: 'utf8'})
  if (r.error) fail(`cannot run ${command}: ${r.error.message}${install ? ` (${install})` : ''}`)
  if (r.status !== 0) fail(`${command} ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`)
}

if (process.platform !== 'linux') fail(`builds Linux executables only, not ${process.platform}`)
// Distribution builds that link Node as a shared library (Debian's own nodejs) cannot carry a blob.
if (!process.config.variables.single_executable_application || process.config.variables.node_shared) {
  fail(`this Node (${process.execPath}) cannot make single executables; use a Node from nodejs.org or NodeSource`)
}
for (const built of ['kube-node.cjs', 'kube-node.cjs.cache', 'help/_root.txt']) {
  if (!existsSync(join(dist, built))) fail(`dist/${built} is missing: run \`npm run build\` first`)
}

rmSync(work, {recursive: true, force: true})
mkdirSync(work, {recursive: true})
const help = Object.fromEntries(
  readdirSync(join(dist, 'help'))
    .filter((f) => f.endsWith('.txt'))
    .map((f) => [f.slice(0, -'.txt'.length), readFileSync(join(dist, 'help', f), 'utf8')]),
)
writeFileSync(join(work, 'help.json'), JSON.stringify(help))
const blob = join(work, 'sea.blob')
const config = {
  main: join(root, 'packaging/sea/entry.cjs'),
  output: blob,
  disableExperimentalSEAWarning: true,
  // V8's cache for the small main script; the bundle brings its own, fuller one.
  useCodeCache: true,
  assets: {
    'kube-node.cjs': join(dist, 'kube-node.cjs'),
    'kube-node.cjs.cache': join(dist, 'kube-node.cjs.cache'),
    'help.json': join(work, 'help.json'),
  },
}
writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2))
tool(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')])

const exe = join(work, 'kube-node')
copyFileSync(process.execPath, exe)
// Node's symbols and debug information: an eighth of its size, and nothing reads them at run
// time. Only before the injection: stripping a finished executable makes it crash at start.
tool('strip', ['--strip-all', '--remove-section=.comment', exe], 'apt-get install binutils')
const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js')
tool(process.execPath, [postject, exe, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE])
chmodSync(exe, 0o755)
renameSync(exe, output)
rmSync(work, {recursive: true, force: true})
console.log(`sea: ${output.slice(root.length + 1)} (${(statSync(output).size / 2 ** 20).toFixed(1)} MiB)`)
