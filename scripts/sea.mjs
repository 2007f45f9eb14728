// `npm run build:sea`: the single executable, dist/kube-node-<platform>-<arch>, that needs no Node on
// the host. It is a copy of the embedded Node with a single-executable blob injected:
// packaging/sea/entry.cjs as the main script and, as assets, the bundle `npm run build` made
// (dist/kube-node.cjs), a V8 code cache for it made here by the embedded Node (a cache is only valid
// for the V8 that wrote it) and the help pages (dist/help). The embedded Node is not the one running
// this script but the current LTS's official binary from the npm registry, pinned by version and
// integrity in packaging/node/package-lock.json, so the executable carries a Node that still gets
// security releases whatever Node the build machine has. Linux only: other platforms need their own
// injection and signing steps.
import {spawnSync} from 'node:child_process'
import {chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const nodeDir = join(root, 'packaging/node')
const work = join(dist, 'sea')
const output = join(dist, `kube-node-${process.platform}-${process.arch}`)
// The fuse Node looks for to know that a blob was injected (Node's SEA documentation).
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'

function fail(message) {
  console.error(`sea: ${message}`)
  process.exit(1)
}

/** Runs a build tool; its chatter is shown only when it fails. `install`: where to get it. */
function tool(command, args, install, options = {}) {
  const r = spawnSync(command, args, {encoding: 'utf8', ...options})
  if (r.error) fail(`cannot run ${command}: ${r.error.message}${install ? ` (${install})` : ''}`)
  if (r.status !== 0) fail(`${command} ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`)
  return r.stdout
}

/**
 * The embedded Node's executable, installed by `npm ci` in packaging/node (which checks the lock's
 * integrity) when missing or of another version than the lock pins. The registry's packages hold
 * the binaries of nodejs.org's release tarballs.
 */
function embeddedNode() {
  const name = `node-${process.platform}-${process.arch}`
  const pinned = JSON.parse(readFileSync(join(nodeDir, 'package-lock.json'), 'utf8')).packages[`node_modules/${name}`]
  if (!pinned) fail(`packaging/node pins no ${name}: add it to its optionalDependencies`)
  const installed = join(nodeDir, 'node_modules', name)
  const version = () => (existsSync(join(installed, 'package.json')) ? JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version : undefined)
  if (version() !== pinned.version) {
    const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm']
    tool(npm[0], [...npm.slice(1), 'ci', '--no-audit', '--no-fund', '--loglevel=error'], 'npm, and the npm registry once', {cwd: nodeDir})
    if (version() !== pinned.version) fail(`npm ci in packaging/node did not install ${name}@${pinned.version}`)
  }
  return join(installed, 'bin/node')
}

if (process.platform !== 'linux') fail(`builds Linux executables only, not ${process.platform}`)
for (const built of ['kube-node.cjs', 'kube-node.cjs.cache', 'help/_root.txt']) {
  if (!existsSync(join(dist, built))) fail(`dist/${built} is missing: run \`npm run build\` first`)
}

const node = embeddedNode()
rmSync(work, {recursive: true, force: true})
mkdirSync(work, {recursive: true})
// The bundle's code cache, from the same runs as the build's own but compiled by the embedded Node.
const cache = join(work, 'kube-node.cjs.cache')
tool(node, [join(root, 'scripts/code-cache.mjs'), cache])
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
  // A quarter of V8's default young generation. Node 24 holds more memory than Node 20 did: a
  // `watch` that has just converged 110 pods sat at 126-153 MiB with the default, 116 with this
  // (the issue's limit is 128), with no more CPU when idle and no slower start (README, Performance).
  execArgv: ['--max-semi-space-size=4'],
  assets: {
    'kube-node.cjs': join(dist, 'kube-node.cjs'),
    'kube-node.cjs.cache': cache,
    'help.json': join(work, 'help.json'),
  },
}
writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2))
// The blob must come from the Node it is injected into.
tool(node, ['--experimental-sea-config', join(work, 'sea-config.json')])

const exe = join(work, 'kube-node')
copyFileSync(node, exe)
// Node's symbols and debug information: an eighth of its size, and nothing reads them at run
// time. Only before the injection: stripping a finished executable makes it crash at start.
tool('strip', ['--strip-all', '--remove-section=.comment', exe], 'apt-get install binutils')
const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js')
tool(process.execPath, [postject, exe, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE])
chmodSync(exe, 0o755)
renameSync(exe, output)
rmSync(work, {recursive: true, force: true})
const embedded = tool(node, ['-p', 'process.version'])
console.log(`sea: ${output.slice(root.length + 1)} (${(statSync(output).size / 2 ** 20).toFixed(1)} MiB, Node ${embedded.trim()})`)
