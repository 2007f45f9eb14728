#!/usr/bin/env node
// Production entry point. `--help` of kube-node or of one of its commands is printed from the text
// the build rendered with oclif (scripts/help-text.mjs). Everything else runs the bundled CLI,
// dist/kube-node.cjs, compiled with the V8 code cache the build made for it
// (scripts/code-cache.mjs): V8 then skips most of the parsing and compiling a start would cost.
// CommonJS (bin/package.json): an ES module entry would cost the start Node's ESM loader.
'use strict'
const {readFileSync, writeFileSync} = require('node:fs')
const {Module, createRequire} = require('node:module')
const {dirname, join} = require('node:path')
const vm = require('node:vm')

const root = join(__dirname, '..')
// `help run` is `run --help`, as kubectl's and oclif's users type it.
const args = process.argv[2] === 'help' ? [...process.argv.slice(3), '--help'] : process.argv.slice(2)
const last = args.at(-1)
const words = args.slice(0, -1)
if ((last === '--help' || last === '-h') && words.every((w) => /^[a-z][a-z-]*$/.test(w)) && !process.env.KUBE_NODE_NO_HELP_CACHE) {
  let text
  try {
    text = readFileSync(join(root, 'dist/help', `${words.join(':') || '_root'}.txt`), 'utf8')
  } catch {
    text = undefined
  }
  if (text !== undefined) {
    process.stdout.write(text.replaceAll('{{runtime}}', `${process.platform}-${process.arch} node-${process.version}`))
    process.exit(0)
  }
}

// An import() left in the bundle (oclif's loader of ESM plugins, which kube-node does not use)
// goes to Node's own ESM loader, as it would from a file require() loaded; without this option it
// throws "A dynamic import callback was not specified". The bundle's own lazy loads of built-ins
// are require() calls (scripts/bundle.mjs), so they never depend on it. Node before 20.12 lacks it.
const importModuleDynamically = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER

/** Loads a CommonJS file as require() would, but with V8's code cache for it when there is one. */
function load(file) {
  // The build's cache run (scripts/code-cache.mjs) grows the cache it writes, wherever that is.
  const cacheOut = process.env.KUBE_NODE_WRITE_CODE_CACHE
  let cachedData
  try {
    cachedData = readFileSync(cacheOut ?? `${file}.cache`)
  } catch {
    cachedData = undefined
  }
  // A cache from another Node or V8 build is rejected by V8 and costs only its read.
  const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), {filename: file, cachedData, importModuleDynamically})
  const module = new Module(file)
  module.filename = file
  module.paths = Module._nodeModulePaths(dirname(file))
  if (cacheOut) process.once('exit', () => writeFileSync(cacheOut, script.createCachedData()))
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file))
  module.loaded = true
  return module.exports
}

const {main} = load(join(root, 'dist/kube-node.cjs'))
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
main(args, root).then(exitWhenWritten, (error) => {
  process.stderr.write(`kube-node: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
  exitWhenWritten()
})
