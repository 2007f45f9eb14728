#!/usr/bin/env node
// Benchmark of `kube-node watch` (issue: idle cost and reaction times), against raw CRI calls
// measured in the same run. Prints figures and ratios; asserts nothing.
//
//   npm run build && node bench/watch.mjs [--pods 110] [--idle-seconds 60] [--reps 3] [--executable]
//
// --executable runs what the .deb ships, the single executable (npm run build:sea) with the Node it
// embeds, instead of `node bin/run.js` on the Node running this script.
//
// 1. idle: a full node (110 converged pods, the kubelet's maxPods); CPU time of the watch process
//    per minute (as % of one core), its resident memory at the end, and CRI calls per PLEG relist,
//    read from its /metrics (kubelet_runtime_operations_total and
//    kubelet_pleg_relist_duration_seconds_count). Targets: 2 list calls per relist, ≤ 1% CPU,
//    RSS ≤ 128 MiB.
// 2. edit: one manifest's env changed → its new container running, minus the raw CRI time of the
//    same steps (StopContainer + CreateContainer + StartContainer) on a pod of the bench's own.
//    Target: < 0.3 s.
// 3. kill: a container's task killed from outside (ctr) → a new container running.
//    Target: < 1.5 s.
import {spawn, execFileSync} from 'node:child_process'
import {mkdtemp, writeFile, rm, mkdir} from 'node:fs/promises'
import {readFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {cpus, loadavg, tmpdir} from 'node:os'
import {join, dirname} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'
import {performance} from 'node:perf_hooks'

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..')
const {createGrpcRuntime} = await import(join(REPO, 'dist/cri/grpc/client.js'))
const ENDPOINT = process.env.CONTAINER_RUNTIME_ENDPOINT || 'unix:///run/kube-node-e2e/containerd.sock'
const SOCKET = ENDPOINT.replace(/^unix:\/\//, '')
const IMAGE = 'localhost:5000/busybox:latest'
const NODE = 'benchw'

const {values: flags} = parseArgs({
  options: {
    pods: {type: 'string', default: '110'},
    'idle-seconds': {type: 'string', default: '60'},
    reps: {type: 'string', default: '3'},
    executable: {type: 'boolean', default: false},
  },
})
const PODS = Number(flags.pods)
const IDLE_S = Number(flags['idle-seconds'])
const REPS = Number(flags.reps)

const rt = createGrpcRuntime({runtimeEndpoint: ENDPOINT})
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

function manifest(name, env = '0') {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${IMAGE}
    imagePullPolicy: IfNotPresent
    env: [{name: REV, value: "${env}"}]
    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]
`
}

async function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const {port} = s.address()
      s.close(() => resolve(port))
    })
  })
}

async function runningContainer(podName) {
  const cs = await rt.runtime.listContainers({state: 'CONTAINER_RUNNING', labelSelector: {'io.kubernetes.pod.name': `${podName}-${NODE}`}})
  return cs[0]?.id
}

/** Polls (every 10 ms) until the pod runs a container other than `oldId`; returns ms since `t0`. */
async function waitNewContainer(podName, oldId, t0, timeoutMs = 60_000) {
  for (;;) {
    const id = await runningContainer(podName)
    if (id && id !== oldId) return performance.now() - t0
    if (performance.now() - t0 > timeoutMs) throw new Error(`${podName}: no new container after ${timeoutMs} ms`)
    await sleep(10)
  }
}

async function metrics(port) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
  const ops = {}
  let relists = 0
  for (const line of text.split('\n')) {
    let m = /^kubelet_runtime_operations_total\{operation_type="([^"]+)"\} (\S+)/.exec(line)
    if (m) ops[m[1]] = Number(m[2])
    m = /^kubelet_pleg_relist_duration_seconds_count(?:\{\})? (\S+)/.exec(line)
    if (m) relists = Number(m[1])
  }
  return {ops, relists}
}

/** Resident memory of a process, in MiB: all, and the part that is file pages (the executable's code and read-only data, shared and reclaimable). */
function rssMib(pid, field = 'VmRSS') {
  const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : NaN
}

/** The load average now, with a warning when it is above the core count. */
function load(when) {
  const l = loadavg()[0]
  if (l > cpus().length) process.stderr.write(`bench: warning: load average ${l.toFixed(2)} ${when} is above the ${cpus().length} cores; other work skews the figures\n`)
  return l.toFixed(2)
}

function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12]) // utime + stime, in clock ticks
}

/** Raw CRI floor for an edit: stop the old container, create and start the new one. */
async function rawReplaceFloor() {
  const logDir = await mkdtemp(join(tmpdir(), 'knbw-raw-'))
  const config = {
    metadata: {name: 'raw', uid: `raw-${process.pid}`, namespace: 'bench', attempt: 0},
    hostname: 'raw',
    logDirectory: logDir,
    portMappings: [],
    labels: {'kube-node-bench': 'watch'},
    annotations: {},
    linux: {securityContext: {namespaceOptions: {network: 'POD', pid: 'CONTAINER', ipc: 'POD'}}},
  }
  const sb = await rt.runtime.runPodSandbox(config)
  const cconfig = (i) => ({
    metadata: {name: 'main', attempt: i},
    image: {image: IMAGE},
    command: ['sh', '-c', "trap 'exit 0' TERM; sleep 3600 & wait"],
    args: [],
    workingDir: '',
    envs: [{key: 'REV', value: String(i)}],
    mounts: [],
    labels: {},
    annotations: {},
    logPath: `main/${i}.log`,
    stdin: false,
    stdinOnce: false,
    tty: false,
  })
  let id = await rt.runtime.createContainer(sb, cconfig(0), config)
  await rt.runtime.startContainer(id)
  const times = []
  for (let i = 1; i <= REPS; i++) {
    const t0 = performance.now()
    await rt.runtime.stopContainer(id, 1)
    const next = await rt.runtime.createContainer(sb, cconfig(i), config)
    await rt.runtime.startContainer(next)
    times.push(performance.now() - t0)
    await rt.runtime.removeContainer(id)
    id = next
  }
  await rt.runtime.stopPodSandbox(sb)
  await rt.runtime.removePodSandbox(sb)
  await rm(logDir, {recursive: true, force: true})
  return median(times)
}

const work = await mkdtemp(join(tmpdir(), 'knbw-'))
const dir = join(work, 'manifests')
await mkdir(dir)
for (let i = 0; i < PODS; i++) await writeFile(join(dir, `p${i}.yaml`), manifest(`p${i}`))
const port = await freePort()
const common = ['--runtime-endpoint', ENDPOINT, '--root-dir', join(work, 'root'), '--pod-logs-dir', join(work, 'logs'), '--node-name', NODE]
const kubeNode = flags.executable ? [join(REPO, `dist/kube-node-${process.platform}-${process.arch}`)] : [process.execPath, join(REPO, 'bin/run.js')]
console.log(`kube-node: ${flags.executable ? 'the single executable' : `node ${process.version} bin/run.js`}`)
const watch = spawn(kubeNode[0], [...kubeNode.slice(1), 'watch', dir, '--port', String(port), '--healthz-port', '0', '--file-check-frequency', '20s', ...common], {stdio: ['ignore', 'ignore', 'pipe']})
let stderr = ''
watch.stderr.on('data', (d) => (stderr += d))
try {
  // Converge.
  console.log(`load average ${load('at the start')} on ${cpus().length} cores at the start`)
  const t0 = performance.now()
  for (;;) {
    const running = await rt.runtime.listContainers({state: 'CONTAINER_RUNNING', labelSelector: {'kube-node.io/node': NODE}})
    if (running.length >= PODS) break
    if (performance.now() - t0 > 300_000) throw new Error('pods did not converge in 5 minutes')
    await sleep(200)
  }
  console.log(`converged ${PODS} pods under watch in ${((performance.now() - t0) / 1000).toFixed(2)} s`)
  await sleep(5000)

  // 1. Idle.
  const before = await metrics(port)
  const ticks0 = cpuTicks(watch.pid)
  await sleep(IDLE_S * 1000)
  const ticks1 = cpuTicks(watch.pid)
  const after = await metrics(port)
  const hz = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100
  const cpuPct = (((ticks1 - ticks0) / hz) / IDLE_S) * 100
  const relists = after.relists - before.relists
  const delta = Object.fromEntries(Object.entries(after.ops).map(([k, v]) => [k, v - (before.ops[k] ?? 0)]).filter(([, v]) => v > 0))
  const total = Object.values(delta).reduce((a, b) => a + b, 0)
  const lists = (delta.list_podsandbox ?? 0) + (delta.list_containers ?? 0)
  console.log(`idle ${IDLE_S}s with ${PODS} pods (load average ${load('after the idle period')}): CPU ${cpuPct.toFixed(2)}% of one core (target ≤ 1%), RSS ${rssMib(watch.pid).toFixed(0)} MiB (target ≤ 128; ${rssMib(watch.pid, 'RssAnon').toFixed(0)} MiB anonymous, ${rssMib(watch.pid, 'RssFile').toFixed(0)} MiB file pages); ${relists} relists; CRI calls per relist ${(total / Math.max(1, relists)).toFixed(2)} (list calls ${(lists / Math.max(1, relists)).toFixed(2)}); calls: ${JSON.stringify(delta)}`)

  // 2. Edit reaction.
  const floor = await rawReplaceFloor()
  const edits = []
  for (let i = 1; i <= REPS; i++) {
    const old = await runningContainer('p0')
    const t = performance.now()
    await writeFile(join(dir, 'p0.yaml'), manifest('p0', String(i)))
    edits.push(await waitNewContainer('p0', old, t))
    await sleep(1500)
  }
  const edit = median(edits)
  console.log(`edit → new container running: ${(edit / 1000).toFixed(3)} s; raw CRI stop+create+start ${(floor / 1000).toFixed(3)} s; kube-node overhead ${((edit - floor) / 1000).toFixed(3)} s (target < 0.3 s); ratio ${(edit / floor).toFixed(2)}×`)

  // 3. Kill reaction.
  const kills = []
  for (let i = 1; i <= REPS; i++) {
    // A different pod each time, so crash-loop back-off never applies.
    const name = `p${i}`
    const old = await runningContainer(name)
    const t = performance.now()
    execFileSync('ctr', ['--address', SOCKET, '-n', 'k8s.io', 'tasks', 'kill', '-s', 'SIGKILL', old])
    kills.push(await waitNewContainer(name, old, t))
  }
  console.log(`container killed → restarted: ${(median(kills) / 1000).toFixed(3)} s (target < 1.5 s); runs ${kills.map((k) => (k / 1000).toFixed(2)).join(', ')}`)
} finally {
  watch.kill('SIGTERM')
  await new Promise((r) => watch.on('exit', r))
  // Under heavy load a first `down` can time out: once more, and the work dir is kept if it fails.
  const down = () => {
    try {
      execFileSync(kubeNode[0], [...kubeNode.slice(1), 'down', '--all', ...common], {stdio: 'ignore'})
      return true
    } catch {
      return false
    }
  }
  const clean = down() || down()
  rt.close()
  if (clean) await rm(work, {recursive: true, force: true})
  else process.stderr.write(`bench: down --all failed twice; pods of node ${NODE} may remain: kube-node down --all ${common.join(' ')}\n`)
  if (process.exitCode) process.stderr.write(stderr.slice(-4000))
}
