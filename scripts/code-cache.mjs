// Build step after the bundle: writes dist/kube-node.cjs.cache, V8's code cache for the bundle,
// which bin/run.js hands to V8 so that a start skips parsing and compiling what it runs. The cache
// holds the functions that a few commands compiled when the build ran them, against a stand-in
// runtime on a temporary socket (scripts/code-cache-runtime.mjs) and an empty root directory; they
// touch nothing else. Each run starts from the cache the previous one wrote and adds what it
// compiled. A cache from another Node or V8 build is rejected by V8, and kube-node then compiles
// as if there were none. An argument names another output file: scripts/sea.mjs makes the single
// executable's cache by running this with the Node it embeds.
import {execFile} from 'node:child_process'
import {mkdtempSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, relative, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {startBuildRuntime} from './code-cache-runtime.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const cache = resolve(process.argv[2] ?? join(root, 'dist/kube-node.cjs.cache'))
const work = mkdtempSync(join(tmpdir(), 'kube-node-code-cache-'))
const runtime = await startBuildRuntime(join(root, 'proto/api.proto'), join(work, 'cri.sock'))
const node = ['--runtime-endpoint', runtime.endpoint, '--root-dir', join(work, 'root'), '--pod-logs-dir', join(work, 'logs'), '--node-name', 'build']
const hello = join(root, 'manifests/hello.yaml')
const runs = [
  ['validate', '-f', join(root, 'manifests')],
  ['version'],
  ['plan', '-f', hello, ...node],
  ['run', '-f', hello, '--timeout', '20s', ...node],
  ['get', 'pods', ...node],
  ['get', 'pods', '-o', 'wide', ...node],
  ['describe', 'pod', 'hello', ...node],
  ['down', '--all', ...node],
]
rmSync(cache, {force: true})
try {
  for (const args of runs) {
    const env = {...process.env, KUBE_NODE_WRITE_CODE_CACHE: cache, NO_COLOR: '1', CONTAINER_RUNTIME_ENDPOINT: runtime.endpoint}
    // Exit codes do not matter here, only what the run compiled.
    await promisify(execFile)(process.execPath, [join(root, 'bin/run.js'), ...args], {env, timeout: 60_000}).catch((err) => {
      if (process.env.KUBE_NODE_DEBUG_CODE_CACHE) console.error(args.join(' '), err.stderr ?? err)
    })
  }
} finally {
  await runtime.stop()
  rmSync(work, {recursive: true, force: true})
}
console.log(`code-cache: ${relative(root, cache)} (${(statSync(cache).size / 1024).toFixed(0)} KiB)`)
