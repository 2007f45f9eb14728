#!/usr/bin/env node
// Benchmark: how long kube-node takes to converge N one-container pods, against the floor of the
// same work done with raw CRI calls (RunPodSandbox, CreateContainer, StartContainer per pod) in
// the same run, on the same runtime. Prints medians and ratios; asserts nothing.
//
//   npm run build && node bench/converge.mjs [--sizes 1,10,50] [--reps 3] [--parallelism 1,2,4,8,16]
//                                            [--floor-concurrency 1,4,16] [--no-command] [--profile] [--json]
//
// Needs a CRI runtime (CONTAINER_RUNTIME_ENDPOINT, else the e2e one started by
// `bash scripts/runtime.sh up`) with localhost:5000/busybox:latest present. Neither path pulls:
// the manifests say imagePullPolicy IfNotPresent and the floor never calls PullImage. Everything
// the benchmark creates is removed, untimed, after each measurement and checked at the end.
import {spawn, execFileSync} from 'node:child_process'
import {randomBytes, randomUUID} from 'node:crypto'
import {existsSync, readFileSync, statSync} from 'node:fs'
import {cp, mkdir, mkdtemp, rm, symlink, writeFile} from 'node:fs/promises'
import {cpus, loadavg, tmpdir} from 'node:os'
import {join, dirname} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {parseArgs} from 'node:util'
import {performance} from 'node:perf_hooks'

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..')

const E2E_ENDPOINT = 'unix:///run/kube-node-e2e/containerd.sock'
const IMAGE = 'localhost:5000/busybox:latest'
// Exits at once on SIGTERM (a plain `sleep` as PID 1 ignores it), so that cleanup is quick.
const COMMAND = ['sh', '-c', "trap 'exit 0' TERM; sleep 3600 & wait"]
const CONTAINER = 'sleeper'
const BENCH_LABEL = 'kube-node-bench'
const NODE_NAME = 'bench'
const TIMEOUT_MS = 180_000

const {values: flags} = parseArgs({
  options: {
    sizes: {type: 'string', default: '1,10,50'},
    reps: {type: 'string', default: '3'},
    parallelism: {type: 'string', default: '1,2,4,8,16'},
    'floor-concurrency': {type: 'string', default: '1,4,16'},
    'no-command': {type: 'boolean', default: false},
    profile: {type: 'boolean', default: false},
    json: {type: 'boolean', default: false},
    'no-snapshot': {type: 'boolean', default: false},
    'kube-node-root': {type: 'string', default: REPO},
    endpoint: {type: 'string', default: process.env.CONTAINER_RUNTIME_ENDPOINT || E2E_ENDPOINT},
    help: {type: 'boolean', short: 'h', default: false},
  },
})
if (flags.help) {
  process.stdout.write(readHeader())
  process.exit(0)
}
const ints = (s) => s.split(',').map((x) => Number.parseInt(x, 10)).filter((x) => x > 0)
const SIZES = ints(flags.sizes)
const REPS = Math.max(1, Number.parseInt(flags.reps, 10) || 1)
const PARALLELISM = ints(flags.parallelism)
const FLOOR_CONC = ints(flags['floor-concurrency'])
const ENDPOINT = flags.endpoint
const RUN_ID = randomBytes(3).toString('hex')
const PREFIX = `knb-${RUN_ID}-`

function readHeader() {
  return 'node bench/converge.mjs [--sizes 1,10,50] [--reps 3] [--parallelism 1,2,4,8,16] [--floor-concurrency 1,4,16] [--no-command] [--profile] [--json] [--endpoint URL] [--kube-node-root DIR] [--no-snapshot]\n'
}

const log = (msg) => process.stderr.write(`bench: ${msg}\n`)
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

// CPU seconds: this process (the CRI client side) and, when its pid file is known, containerd's
// main process (the server side; shims and runc not included). Other users of the same runtime
// are counted too: read these as indications.
const RUNTIME_PIDFILE = '/run/kube-node-e2e/containerd.pid'
function runtimeCpu() {
  try {
    if (ENDPOINT !== E2E_ENDPOINT) return undefined
    const pid = readFileSync(RUNTIME_PIDFILE, 'utf8').trim()
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(f[11]) + Number(f[12])) / 100 // utime + stime, in USER_HZ (100 on Linux)
  } catch {
    return undefined
  }
}
function cpuMeter() {
  const c0 = process.cpuUsage()
  const r0 = runtimeCpu()
  return () => {
    const c = process.cpuUsage(c0)
    const r1 = runtimeCpu()
    return {client: (c.user + c.system) / 1e6, runtime: r0 === undefined || r1 === undefined ? undefined : r1 - r0}
  }
}

/** Runs fn over items with at most `conc` in flight; stops taking new items after a failure. */
async function pool(items, conc, fn) {
  let next = 0
  let failure
  const worker = async () => {
    while (next < items.length && failure === undefined) {
      const i = next++
      try {
        await fn(items[i], i)
      } catch (err) {
        failure ??= err
      }
    }
  }
  await Promise.all(Array.from({length: Math.max(1, Math.min(conc, items.length))}, worker))
  if (failure !== undefined) throw failure
}

// ---------------------------------------------------------------- setup and checks

const work = await mkdtemp(join(tmpdir(), 'kube-node-bench-'))

// The compiled kube-node is copied first (dist, bin, proto, package.json; node_modules linked), so
// that a rebuild of dist/ while the benchmark runs cannot change or break what it measures.
async function snapshot() {
  if (flags['no-snapshot']) return SOURCE
  const dir = join(work, 'kube-node')
  await mkdir(dir)
  for (const d of ['dist', 'bin', 'proto']) await cp(join(SOURCE, d), join(dir, d), {recursive: true})
  await cp(join(SOURCE, 'package.json'), join(dir, 'package.json'))
  await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'))
  return dir
}
const SOURCE = flags['kube-node-root']
let ROOT, createGrpcRuntime, createNode, runPods, downPods, silentLogger
try {
  ROOT = await snapshot()
  const dist = (p) => import(pathToFileURL(join(ROOT, 'dist', p)).href)
  ;({createGrpcRuntime} = await dist('cri/grpc/client.js'))
  ;({createNode} = await dist('node/create-node.js'))
  ;({runPods} = await dist('node/run.js'))
  ;({downPods} = await dist('node/down.js'))
  ;({silentLogger} = await dist('util/logger.js'))
} catch (err) {
  await rm(work, {recursive: true, force: true})
  log(`cannot load kube-node from ${join(SOURCE, 'dist')} (run npm run build): ${err?.message ?? err}`)
  process.exit(1)
}
const BUILD = buildInfo()
const MAX_PODS = 100_000
// Older builds have no --max-pods flag.
const CLI_MAX_PODS = readFileSync(join(ROOT, 'dist', 'cli', 'base-command.js'), 'utf8').includes("'max-pods'") ? ['--max-pods', String(MAX_PODS)] : []

/** Which kube-node was measured: the commit, whether the tree had changes, when dist/ was built. */
function buildInfo() {
  let commit = 'unknown'
  let dirty = false
  try {
    commit = execFileSync('git', ['-C', SOURCE, 'rev-parse', '--show-toplevel'], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']}).trim() === SOURCE
      ? execFileSync('git', ['-C', SOURCE, 'rev-parse', '--short', 'HEAD'], {encoding: 'utf8'}).trim()
      : SOURCE
    dirty = commit !== SOURCE && execFileSync('git', ['-C', SOURCE, 'status', '--porcelain', '--', 'src'], {encoding: 'utf8'}).trim() !== ''
  } catch {
    commit = SOURCE // not a git checkout
  }
  const built = statSync(join(SOURCE, 'dist', 'node', 'run.js')).mtime.toISOString()
  return {commit, dirty, built}
}
const floorRt = createGrpcRuntime({runtimeEndpoint: ENDPOINT, callTimeoutMs: 60_000})

let others = 0
async function preflight() {
  let version
  try {
    version = await floorRt.runtime.version()
  } catch (err) {
    throw new Error(`the runtime at ${ENDPOINT} is not reachable (${err.message}); start it with: bash scripts/runtime.sh up`)
  }
  // kube-node's `run` reads every pod it manages on the node (admission): others' pods cost it time.
  others = (await floorRt.runtime.listPodSandbox({labelSelector: {'kube-node.io/managed': 'true'}})).length
  const img = await floorRt.images.imageStatus({image: IMAGE})
  if (!img) throw new Error(`image ${IMAGE} is not present in the runtime; run: bash scripts/runtime.sh up`)
  return version
}

// ---------------------------------------------------------------- floor: raw CRI calls

// The floor asks the runtime for the same work as kube-node's configs do (dumped from a real run):
// host DNS servers, seccomp RuntimeDefault for sandbox and container, the kubelet's default masked
// and read-only /proc paths, minimum CPU shares. Only kube-node's own logic is left out.
const MASKED_PATHS = ['/proc/asound', '/proc/acpi', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list', '/proc/timer_stats', '/proc/sched_debug', '/proc/scsi', '/sys/firmware', '/sys/devices/virtual/powercap']
const READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger']
const RUNTIME_DEFAULT = {profileType: 'RuntimeDefault', localhostRef: ''}
const NAMESPACES = {network: 'POD', ipc: 'POD', pid: 'CONTAINER'}

function hostDns() {
  const dns = {servers: [], searches: [], options: []}
  try {
    for (const line of readFileSync('/etc/resolv.conf', 'utf8').split('\n')) {
      const [key, ...rest] = line.trim().split(/\s+/)
      if (key === 'nameserver' && rest[0]) dns.servers.push(rest[0])
      else if (key === 'search') dns.searches = rest
      else if (key === 'options') dns.options = rest
    }
  } catch {
    // no resolv.conf: the runtime copies nothing either
  }
  return dns
}
const HOST_DNS = hostDns()

function floorPods(n, logRoot) {
  return Array.from({length: n}, (_, i) => {
    const name = `${PREFIX}f${i}`
    const uid = randomUUID()
    const labels = {
      [BENCH_LABEL]: RUN_ID,
      'io.kubernetes.pod.name': name,
      'io.kubernetes.pod.namespace': 'default',
      'io.kubernetes.pod.uid': uid,
    }
    const sandbox = {
      metadata: {name, uid, namespace: 'default', attempt: 0},
      hostname: name,
      logDirectory: join(logRoot, `default_${name}_${uid}`),
      dnsConfig: HOST_DNS,
      portMappings: [],
      labels,
      annotations: {'kubernetes.io/config.source': 'file'},
      linux: {
        cgroupParent: '',
        securityContext: {namespaceOptions: NAMESPACES, privileged: false, seccomp: RUNTIME_DEFAULT},
        sysctls: {},
      },
    }
    const container = {
      metadata: {name: CONTAINER, attempt: 0},
      image: {image: IMAGE, userSpecifiedImage: IMAGE},
      command: COMMAND,
      args: [],
      workingDir: '',
      envs: [],
      mounts: [],
      labels: {...labels, 'io.kubernetes.container.name': CONTAINER},
      annotations: {'io.kubernetes.container.restartCount': '0'},
      logPath: `${CONTAINER}/0.log`,
      stdin: false,
      stdinOnce: false,
      tty: false,
      linux: {
        resources: {cpuPeriod: 0, cpuQuota: 0, cpuShares: 2, memoryLimitInBytes: 0, oomScoreAdj: 0, cpusetCpus: '', cpusetMems: ''},
        securityContext: {privileged: false, namespaceOptions: NAMESPACES, seccomp: RUNTIME_DEFAULT, maskedPaths: MASKED_PATHS, readonlyPaths: READONLY_PATHS},
      },
    }
    return {sandbox, container, sandboxId: ''}
  })
}

/** Seconds from the first call to the last container started (log directories included, as the kubelet makes them). */
async function floorRun(n, conc, rt = floorRt) {
  const logRoot = join(work, 'floor-logs')
  const pods = floorPods(n, logRoot)
  const meter = cpuMeter()
  const t0 = performance.now()
  let secs
  let cpu
  try {
    await pool(pods, conc, async (p) => {
      await mkdir(join(p.sandbox.logDirectory, CONTAINER), {recursive: true})
      p.sandboxId = await rt.runtime.runPodSandbox(p.sandbox)
      const id = await rt.runtime.createContainer(p.sandboxId, p.container, p.sandbox)
      await rt.runtime.startContainer(id)
    })
    secs = (performance.now() - t0) / 1000
    cpu = meter()
  } finally {
    await pool(pods.filter((p) => p.sandboxId), 16, (p) => removeSandbox(p.sandboxId))
    await rm(logRoot, {recursive: true, force: true})
  }
  return {secs, cpu}
}

// ---------------------------------------------------------------- kube-node

function manifest(i) {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${PREFIX}k${i}
  labels:
    ${BENCH_LABEL}: "${RUN_ID}"
spec:
  restartPolicy: Always
  terminationGracePeriodSeconds: 0
  containers:
  - name: ${CONTAINER}
    image: ${IMAGE}
    imagePullPolicy: IfNotPresent
    command: ${JSON.stringify(COMMAND)}
`
}

async function manifestDir(n) {
  const dir = join(work, `manifests-${n}`)
  await mkdir(dir, {recursive: true})
  await Promise.all(Array.from({length: n}, (_, i) => writeFile(join(dir, `pod-${i}.yaml`), manifest(i))))
  return dir
}

function nodeConfig(parallelism) {
  return {
    nodeName: NODE_NAME,
    rootDir: join(work, 'root'),
    podLogsDir: join(work, 'pod-logs'),
    runtimeEndpoint: ENDPOINT,
    imageEndpoint: ENDPOINT,
    runtimeRequestTimeoutMs: 60_000,
    resolvConf: '/etc/resolv.conf',
    clusterDNS: [],
    clusterDomain: 'cluster.local',
    parallelism,
    // Other pods on a shared runtime must not make admission reject the benchmark's.
    maxPods: MAX_PODS,
  }
}

/** Removes the pods of `dir` (only those: other pods on this runtime are not the benchmark's). */
async function downDir(dir) {
  const node = await createNode(nodeConfig(4), silentLogger)
  try {
    await downPods(node, {locations: [dir]})
  } catch (err) {
    log(`warning: kube-node down: ${err?.message ?? err}`)
  } finally {
    node.close()
  }
}

function countsDelta(after, before) {
  const out = {}
  for (const [k, v] of Object.entries(after)) if (v - (before[k] ?? 0) > 0) out[k] = v - (before[k] ?? 0)
  return out
}

/** In-process: createNode, warm the connection (the floor's is warm too), then time runPods alone. */
async function kubeNodeRun(dir, n, parallelism, overrides = {}) {
  const node = await createNode(nodeConfig(parallelism), silentLogger, overrides)
  let secs
  let cpu
  let counts = {}
  try {
    await node.runtime.version()
    const before = node.callCounts() ?? {}
    const meter = cpuMeter()
    const t0 = performance.now()
    const results = await runPods(node, [dir], {wait: 'running', timeoutMs: TIMEOUT_MS})
    secs = (performance.now() - t0) / 1000
    cpu = meter()
    counts = countsDelta(node.callCounts() ?? {}, before)
    const bad = results.filter((r) => r.outcome !== 'done')
    if (bad.length) throw new Error(`kube-node: ${bad.length}/${n} pods not running: ${bad[0].reason}`)
  } finally {
    node.close()
    await downDir(dir)
  }
  return {secs, counts, cpu}
}

/** The whole command, process start to exit, as a user runs it (CLI default parallelism). */
async function commandRun(dir) {
  const args = [
    join(ROOT, 'bin/run.js'), 'run', '-f', dir,
    '--root-dir', join(work, 'root'), '--pod-logs-dir', join(work, 'pod-logs'),
    '--node-name', NODE_NAME, '--runtime-endpoint', ENDPOINT, '--timeout', `${TIMEOUT_MS / 1000}s`,
    ...CLI_MAX_PODS,
  ]
  const useTime = existsSync('/usr/bin/time')
  const [cmd, argv] = useTime ? ['/usr/bin/time', ['-f', 'BENCH_MAXRSS_KB=%M', process.execPath, ...args]] : [process.execPath, args]
  const t0 = performance.now()
  try {
    const {code, stderr} = await new Promise((resolve, reject) => {
      const child = spawn(cmd, argv, {stdio: ['ignore', 'ignore', 'pipe']})
      let stderr = ''
      child.stderr.on('data', (d) => (stderr += d))
      child.on('error', reject)
      child.on('close', (code) => resolve({code, stderr}))
    })
    const secs = (performance.now() - t0) / 1000
    if (code !== 0) throw new Error(`kube-node run exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`)
    const m = /BENCH_MAXRSS_KB=(\d+)/.exec(stderr)
    return {secs, maxRssMb: m ? Number(m[1]) / 1024 : undefined}
  } finally {
    await downDir(dir)
  }
}

// ---------------------------------------------------------------- profile: time per RPC

function timedRuntime(rt, table) {
  const wrap = (svc) =>
    new Proxy(svc, {
      get(target, prop) {
        const fn = target[prop]
        if (typeof fn !== 'function') return fn
        return async (...args) => {
          const t0 = performance.now()
          try {
            return await fn.apply(target, args)
          } finally {
            const e = (table[prop] ??= {calls: 0, ms: 0})
            e.calls++
            e.ms += performance.now() - t0
          }
        }
      },
    })
  return {runtime: wrap(rt.runtime), images: wrap(rt.images), close: () => rt.close()}
}

// ---------------------------------------------------------------- cleanup sweep and leftovers

/** Untimed cleanup never fails the benchmark: what it misses, the final sweep retries and the leftover check reports. */
async function removeSandbox(id) {
  try {
    await floorRt.runtime.stopPodSandbox(id)
    await floorRt.runtime.removePodSandbox(id)
  } catch (err) {
    if (err?.code !== 'NotFound') log(`warning: cleanup of sandbox ${id.slice(0, 12)}: ${err?.message ?? err}`)
  }
}

/**
 * Removes whatever this run left (a crash mid-way); returns how many sandboxes it found. Waits
 * up to a minute for a runtime that is restarting, since leaving pods behind is worse than waiting.
 */
async function sweep() {
  for (let attempt = 1; ; attempt++) {
    try {
      const left = await floorRt.runtime.listPodSandbox({labelSelector: {[BENCH_LABEL]: RUN_ID}})
      for (const s of left) await removeSandbox(s.id)
      return left.length
    } catch (err) {
      if (attempt >= 20) throw err
      log(`cleanup: runtime not answering (${err?.message ?? err}); retrying`)
      await sleep(3000)
    }
  }
}

/** Containers (sandboxes' pause containers included) of this run that containerd still has, by ctr. */
function ctrLeftovers() {
  const address = ENDPOINT.replace(/^unix:\/\//, '')
  try {
    const out = execFileSync('ctr', ['-n', 'k8s.io', '--address', address, 'containers', 'ls', '-q', `labels."io.kubernetes.pod.name"~="^${PREFIX}"`], {encoding: 'utf8'})
    return out.split('\n').filter(Boolean).length
  } catch {
    return undefined
  }
}

let interrupted = false
process.on('SIGINT', () => {
  if (interrupted) process.exit(130)
  interrupted = true
  log('interrupted: cleaning up')
  sleep(1000)
    .then(sweep)
    .finally(() => rm(work, {recursive: true, force: true}).finally(() => process.exit(130)))
})

// ---------------------------------------------------------------- main

const fmt = (x) => (x === undefined ? '-' : x.toFixed(3))
const fmtR = (x) => (x === undefined ? '-' : `${x.toFixed(2)}x`)

async function main() {
  const version = await preflight()
  log(`runtime ${version.runtimeName} ${version.runtimeVersion} at ${ENDPOINT}; ${IMAGE} present; run id ${RUN_ID}`)
  log(`sizes ${SIZES.join(',')}, floor concurrency ${FLOOR_CONC.join(',')}, kube-node parallelism ${PARALLELISM.join(',')}, ${REPS} reps (median)`)
  const loadStart = loadavg()[0]
  if (loadStart > 1) log(`warning: load average ${loadStart.toFixed(2)} on ${cpus().length} CPUs before starting; other work skews the figures`)
  const started = performance.now()
  const results = []
  for (const n of SIZES) {
    const dir = await manifestDir(n)
    const floor = Object.fromEntries(FLOOR_CONC.map((c) => [c, []]))
    // With one pod, parallelism makes no difference: measure one value only.
    const ps = n === 1 ? [Math.min(...PARALLELISM.filter((p) => p >= 1))] : PARALLELISM.filter((p) => p <= Math.max(n, 1) || p === PARALLELISM[0])
    const kn = Object.fromEntries(ps.map((p) => [p, []]))
    const cmd = []
    const rss = []
    const floorCpu = Object.fromEntries(FLOOR_CONC.map((c) => [c, []]))
    const knCpu = Object.fromEntries(ps.map((p) => [p, []]))
    let counts = {}
    for (let r = 0; r < REPS; r++) {
      // Interleaved, so that drift (other load, containerd's own state) hits every column alike.
      for (const c of FLOOR_CONC) {
        const res = await floorRun(n, c)
        floor[c].push(res.secs)
        floorCpu[c].push(res.cpu)
        await sleep(300)
      }
      for (const p of ps) {
        const res = await kubeNodeRun(dir, n, p)
        kn[p].push(res.secs)
        knCpu[p].push(res.cpu)
        counts = res.counts
        await sleep(300)
      }
      if (!flags['no-command']) {
        const res = await commandRun(dir)
        cmd.push(res.secs)
        if (res.maxRssMb !== undefined) rss.push(res.maxRssMb)
        await sleep(300)
      }
      log(`N=${n} rep ${r + 1}/${REPS} done (${((performance.now() - started) / 1000).toFixed(0)} s so far)`)
    }
    const floorMed = Object.fromEntries(FLOOR_CONC.map((c) => [c, median(floor[c])]))
    const best = Math.min(...Object.values(floorMed))
    const bestConc = Number(Object.entries(floorMed).find(([, v]) => v === best)[0])
    const knMed = Object.fromEntries(ps.map((p) => [p, median(kn[p])]))
    const cpuMed = (xs) => ({
      client: median(xs.map((x) => x.client)),
      runtime: xs.every((x) => x.runtime !== undefined) ? median(xs.map((x) => x.runtime)) : undefined,
    })
    results.push({
      n,
      floor: floorMed,
      floorSamples: floor,
      best,
      bestConc,
      kubeNode: knMed,
      kubeNodeSamples: kn,
      command: cmd.length ? median(cmd) : undefined,
      commandSamples: cmd,
      commandMaxRssMb: rss.length ? Math.max(...rss) : undefined,
      floorCpu: Object.fromEntries(FLOOR_CONC.map((c) => [c, cpuMed(floorCpu[c])])),
      kubeNodeCpu: Object.fromEntries(ps.map((p) => [p, cpuMed(knCpu[p])])),
      callsPerPod: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / n])),
    })
  }

  let profile
  if (flags.profile) {
    const n = Math.max(...SIZES)
    const dir = await manifestDir(n)
    const conc = 4
    const floorTable = {}
    const floorTimed = timedRuntime(createGrpcRuntime({runtimeEndpoint: ENDPOINT, callTimeoutMs: 60_000}), floorTable)
    await floorTimed.runtime.version()
    delete floorTable.version
    const fs = (await floorRun(n, conc, floorTimed)).secs
    floorTimed.close()
    const knTable = {}
    const raw = createGrpcRuntime({runtimeEndpoint: ENDPOINT, callTimeoutMs: 60_000})
    const kr = await kubeNodeRun(dir, n, conc, {runtime: timedRuntime(raw, knTable)})
    delete knTable.version
    profile = {n, conc, floor: {secs: fs, calls: floorTable}, kubeNode: {secs: kr.secs, calls: knTable}}
  }

  // Sweep and check: nothing of this run may remain.
  await sleep(500)
  const swept = await sweep()
  const leftovers = ctrLeftovers()
  floorRt.close()
  await rm(work, {recursive: true, force: true})
  const totalSecs = (performance.now() - started) / 1000
  const load = {start: loadStart, end: loadavg()[0], cpus: cpus().length}

  if (flags.json) {
    process.stdout.write(JSON.stringify({runtime: version, endpoint: ENDPOINT, reps: REPS, build: BUILD, otherSandboxes: others, results, profile, swept, leftovers, totalSecs, load}, null, 2) + '\n')
    return
  }
  const pCols = [...new Set(results.flatMap((r) => Object.keys(r.kubeNode).map(Number)))].sort((a, b) => a - b)
  const out = []
  out.push(`kube-node converge benchmark — ${version.runtimeName} ${version.runtimeVersion}, ${load.cpus} CPUs, ${REPS} reps, medians in seconds (load average ${load.start.toFixed(2)} at start, ${load.end.toFixed(2)} at end)`)
  out.push(`other kube-node pods on this runtime at start: ${others} sandboxes`)
  out.push(`kube-node ${BUILD.commit}${BUILD.dirty ? ' + uncommitted src changes' : ''}, dist built ${BUILD.built}`)
  out.push(`floor = raw CRI RunPodSandbox+CreateContainer+StartContainer per pod at concurrency c; kube-node = runPods(wait running) in-process at parallelism P;`)
  out.push(`cmd = \`node bin/run.js run -f DIR\` process start to exit (CLI default parallelism). No image pulls in any path (image present, IfNotPresent).`)
  out.push('')
  const head = ['N', ...FLOOR_CONC.map((c) => `floor c=${c}`), 'best', ...pCols.map((p) => `kn P=${p}`), 'cmd', 'cmd/best', 'cmd RSS MB']
  const rows = results.map((r) => [
    String(r.n),
    ...FLOOR_CONC.map((c) => fmt(r.floor[c])),
    `${fmt(r.best)} (c=${r.bestConc})`,
    ...pCols.map((p) => (r.kubeNode[p] === undefined ? '-' : `${fmt(r.kubeNode[p])} ${fmtR(r.kubeNode[p] / r.best)}`)),
    fmt(r.command),
    r.command === undefined ? '-' : fmtR(r.command / r.best),
    r.commandMaxRssMb === undefined ? '-' : r.commandMaxRssMb.toFixed(0),
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)))
  out.push(head.map((h, i) => h.padStart(widths[i])).join('  '))
  for (const row of rows) out.push(row.map((c, i) => c.padStart(widths[i])).join('  '))
  out.push('')
  for (const r of results) {
    const bestKn = Math.min(...Object.values(r.kubeNode))
    const bestP = Object.entries(r.kubeNode).find(([, v]) => v === bestKn)[0]
    out.push(`N=${r.n}: best kube-node ${fmt(bestKn)} s at P=${bestP} (${fmtR(bestKn / r.best)} of the best floor, ${(r.n / bestKn).toFixed(1)} pods/s vs floor ${(r.n / r.best).toFixed(1)} pods/s)`)
    const calls = Object.entries(r.callsPerPod).sort((a, b) => b[1] - a[1])
    const total = calls.reduce((s, [, v]) => s + v, 0)
    const fc = r.floorCpu[r.bestConc]
    const kc = r.kubeNodeCpu[bestP]
    const rt = (x) => (x === undefined ? 'n/a' : `${x.toFixed(2)} s`)
    out.push(`  CPU: client floor ${fc.client.toFixed(2)} s, kube-node ${kc.client.toFixed(2)} s; containerd floor ${rt(fc.runtime)}, kube-node ${rt(kc.runtime)}`)
    out.push(`  kube-node CRI calls per pod: ${total.toFixed(1)} (${calls.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}); floor: 3`)
  }
  if (profile) {
    printProfileInto(out, `profile: floor c=${profile.conc}`, profile.floor.calls, profile.n, profile.floor.secs)
    printProfileInto(out, `profile: kube-node P=${profile.conc}`, profile.kubeNode.calls, profile.n, profile.kubeNode.secs)
  }
  out.push('')
  out.push(`leftovers: ${leftovers ?? 'ctr unavailable'} containers of this run in containerd (swept ${swept} sandboxes at the end); total ${totalSecs.toFixed(0)} s`)
  process.stdout.write(out.join('\n') + '\n')
}

function printProfileInto(out, title, table, n, wallSecs) {
  const rows = Object.entries(table).sort((a, b) => b[1].ms - a[1].ms)
  out.push('')
  out.push(`${title} (N=${n}, wall ${wallSecs.toFixed(2)} s; mean latency per call, summed over concurrent calls)`)
  out.push(`  ${'call'.padEnd(18)} ${'calls'.padStart(6)} ${'per pod'.padStart(8)} ${'mean ms'.padStart(8)} ${'sum s'.padStart(8)}`)
  for (const [k, v] of rows) {
    out.push(`  ${k.padEnd(18)} ${String(v.calls).padStart(6)} ${(v.calls / n).toFixed(1).padStart(8)} ${(v.ms / v.calls).toFixed(1).padStart(8)} ${(v.ms / 1000).toFixed(2).padStart(8)}`)
  }
}

try {
  await main()
} catch (err) {
  log(`failed: ${err?.stack ?? err}`)
  await sweep().catch((e) => log(`cleanup failed: ${e?.message ?? e}`))
  const left = ctrLeftovers()
  if (left) log(`WARNING: ${left} containers of run ${RUN_ID} remain; remove their sandboxes (pod names ${PREFIX}*) with crictl/ctr or re-run after the runtime is back`)
  floorRt.close()
  await rm(work, {recursive: true, force: true})
  process.exitCode = 1
}
