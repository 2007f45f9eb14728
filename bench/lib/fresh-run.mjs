// One in-process converge in a process of its own: what `kubeNodeRun` times in the benchmark's
// long-lived (and so warmed) process, here in a new Node process, so that the whole command can be
// told apart from a cold start of the same code. Prints one JSON line: seconds, CPU, failures.
//
//   node bench/lib/fresh-run.mjs KUBE_NODE_ROOT MANIFEST_DIR NODE_CONFIG_JSON
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

const [root, dir, config] = process.argv.slice(2)
const dist = (p) => import(pathToFileURL(join(root, 'dist', p)).href)
const {createNode} = await dist('node/create-node.js')
const {runPods} = await dist('services/run.js')
const {silentLogger} = await dist('util/logger.js')
const node = await createNode(JSON.parse(config), silentLogger)
// Timed as kubeNodeRun times it: the connection is warm, only runPods counts.
await node.runtime.version()
const cpu0 = process.cpuUsage()
const t0 = performance.now()
const results = await runPods(node, [dir], {wait: 'running', timeoutMs: 10 * 60_000})
const secs = (performance.now() - t0) / 1000
const cpu = process.cpuUsage(cpu0)
node.close()
const bad = results.filter((r) => r.outcome !== 'done')
process.stdout.write(JSON.stringify({secs, cpu: (cpu.user + cpu.system) / 1e6, failed: bad.length, reason: bad[0]?.reason}) + '\n')
process.exit(0)
