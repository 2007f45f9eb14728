// Build step after the bundle: writes dist/kube-node.cjs.cache, V8's code cache for the bundle,
// which bin/run.js hands to V8 so that a start skips parsing and compiling what it runs. The cache
// holds the functions that a few commands compiled when the build ran them; they need no runtime
// and touch nothing (an unreachable runtime endpoint, an empty root directory). Each run starts
// from the cache the previous one wrote and adds what it compiled. A cache from another Node or
// V8 build is rejected by V8, and kube-node then compiles as if there were none.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const cache = join(root, 'dist/kube-node.cjs.cache')
const work = mkdtempSync(join(tmpdir(), 'kube-node-code-cache-'))
const away = ['--runtime-endpoint', `unix://${join(work, 'no-runtime.sock')}`, '--root-dir', join(work, 'root'), '--node-name', 'build']
const runs = [
  ['validate', '-f', join(root, 'manifests')],
  ['version'],
  ['get', 'pods', '-o', 'wide', ...away],
  ['plan', '-f', join(root, 'manifests/hello.yaml'), ...away],
  ['run', '-f', join(root, 'manifests/hello.yaml'), '--timeout', '1s', ...away],
]
rmSync(cache, {force: true})
try {
  for (const args of runs) {
    const env = {...process.env, KUBE_NODE_WRITE_CODE_CACHE: cache, NO_COLOR: '1', CONTAINER_RUNTIME_ENDPOINT: away[1]}
    // Exit codes do not matter here (no runtime): only what the run compiled.
    spawnSync(process.execPath, [join(root, 'bin/run.js'), ...args], {env, stdio: 'ignore', timeout: 60_000})
  }
} finally {
  rmSync(work, {recursive: true, force: true})
}
console.log(`code-cache: dist/kube-node.cjs.cache (${(statSync(cache).size / 1024).toFixed(0)} KiB)`)
