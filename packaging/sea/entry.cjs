// The single executable's main script (scripts/sea.mjs builds it into dist/kube-node-<platform>-<arch>).
// It does what bin/run.js does, but the bundle, its V8 code cache and the rendered help are assets
// inside the executable rather than files in dist/, and kube-node's root is the executable's
// directory. Keep the two in step: test/e2e/packaging/sea.test.ts compares their output.
// Node hands this script a require() that loads built-in modules only; the bundle gets a real one.
'use strict'
const {Module, createRequire} = require('node:module')
const {dirname, join} = require('node:path')
const sea = require('node:sea')
const vm = require('node:vm')

const root = dirname(process.execPath)
// `help run` is `run --help`, as kubectl's and oclif's users type it.
const args = process.argv[2] === 'help' ? [...process.argv.slice(3), '--help'] : process.argv.slice(2)
const last = args.at(-1)
const words = args.slice(0, -1)
if ((last === '--help' || last === '-h') && words.every((w) => /^[a-z][a-z-]*$/.test(w)) && !process.env.KUBE_NODE_NO_HELP_CACHE) {
  const pages = JSON.parse(sea.getAsset('help.json', 'utf8'))
  const id = words.join(':') || '_root'
  if (Object.hasOwn(pages, id)) {
    process.stdout.write(pages[id].replaceAll('{{runtime}}', `${process.platform}-${process.arch} node-${process.version}`))
    process.exit(0)
  }
}

// Not a file on disk: it names the bundle in stack traces and anchors its require() as
// dist/kube-node.cjs anchors bin/run.js's.
const file = join(root, 'kube-node.cjs')
// The code cache was made by the Node this executable was copied from (scripts/sea.mjs), so V8 accepts it.
const script = new vm.Script(Module.wrap(sea.getAsset('kube-node.cjs', 'utf8')), {
  filename: file,
  cachedData: Buffer.from(sea.getAsset('kube-node.cjs.cache')),
  // As in bin/run.js: an import() left in the bundle goes to Node's own ESM loader.
  importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
})
// For the packaging test: a cache V8 turned down would silently cost every start its compile.
if (process.env.KUBE_NODE_DEBUG_CODE_CACHE) process.stderr.write(`code cache ${script.cachedDataRejected ? 'rejected' : 'accepted'}\n`)
const bundle = new Module(file)
bundle.filename = file
bundle.paths = Module._nodeModulePaths(root)
script.runInThisContext()(bundle.exports, createRequire(file), bundle, file, root)
bundle.loaded = true

// When main() is done, nothing of the command is left to run: end the process at once instead of
// letting Node take the whole environment apart first (about 12 ms of a one-pod `run`, measured).
// Writes to pipes, files and terminals are synchronous on Linux; where one still waits in Node (a
// full pipe elsewhere), the process ends once it is written.
function exitWhenWritten() {
  const pending = [process.stdout, process.stderr].filter((s) => s.writableLength > 0)
  let left = pending.length
  if (left === 0) process.exit()
  for (const s of pending) s.write('', () => --left === 0 && process.exit())
}
// main() reports its own errors through oclif; this is for a bundle that cannot start at all.
bundle.exports.main(args, root).then(exitWhenWritten, (error) => {
  process.stderr.write(`kube-node: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
  exitWhenWritten()
})
