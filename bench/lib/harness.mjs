// Shared by the benchmarks that measure kube-node against the CRI floor (converge.mjs, peer.mjs):
// a snapshot of the compiled kube-node, the raw-CRI floor, kube-node in-process, the whole `run`
// command, and the untimed cleanup, sweep and leftover check. Nothing here prints to stdout.
import {spawn, execFileSync} from 'node:child_process'
import {randomBytes, randomUUID} from 'node:crypto'
import {existsSync, readFileSync, statSync} from 'node:fs'
import {cp, mkdir, mkdtemp, rm, symlink, writeFile} from 'node:fs/promises'
import {cpus, loadavg, tmpdir} from 'node:os'
import {join, dirname} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {performance} from 'node:perf_hooks'

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

export const E2E_ENDPOINT = 'unix:///run/kube-node-e2e/containerd.sock'
export const IMAGE = 'localhost:5000/busybox:latest'
// Exits at once on SIGTERM (a plain `sleep` as PID 1 ignores it), so that cleanup is quick.
export const COMMAND = ['sh', '-c', "trap 'exit 0' TERM; sleep 3600 & wait"]
export const CONTAINER = 'sleeper'
export const BENCH_LABEL = 'kube-node-bench'
export const TIMEOUT_MS = 180_000
// The kubelet's default maxPods: a full node. Only pods recorded under the benchmark's own root dir
// count for admission, so other users of a shared runtime cannot make it reject the benchmark's.
export const MAX_PODS = 110

export const log = (msg) => process.stderr.write(`bench: ${msg}\n`)

/** The 1-minute load average, with a warning when it is above the core count (figures then skew). */
export function checkLoad(when) {
  const load = loadavg()[0]
  const cores = cpus().length
  if (load > cores) log(`warning: load average ${load.toFixed(2)} ${when} is above the ${cores} cores; other work skews the figures`)
  return load
}

/**
 * Where a `kube-node run` spent its time, from its progress lines on stderr (each starts with an
 * ISO time) and the process's start and exit: `start` until the first pod's first step (Node,
 * the bundle, the manifests, the first runtime reads), `converge` until the last pod is Running,
 * `finish` until exit (records flushed, report printed, connection closed).
 */
export function commandPhases(stderr, startMs, endMs) {
  const times = stderr
    .split('\n')
    .map((line) => /^(\d{4}-\d\d-\d\dT[\d:.]+Z) (.*)$/.exec(line))
    .filter(Boolean)
  if (times.length === 0) return undefined
  const first = Date.parse(times[0][1])
  const running = times.filter((m) => / pod is (Running|Ready)/.test(m[2]))
  const last = Date.parse((running.at(-1) ?? times.at(-1))[1])
  return {start: (first - startMs) / 1000, converge: (last - first) / 1000, finish: (endMs - last) / 1000}
}
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
/**
 * The columns of one repetition, starting at another column each time: each run leaves the
 * runtime busier (its pods' teardown, the shims' exits), so a fixed order would always give the
 * same column the quietest or the busiest machine.
 */
export const rotated = (columns, rep) => columns.map((_, i) => columns[(i + rep) % columns.length])
export const ints = (s) => s.split(',').map((x) => Number.parseInt(x, 10)).filter((x) => x > 0)

/** Runs fn over items with at most `conc` in flight; stops taking new items after a failure. */
export async function pool(items, conc, fn) {
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

/**
 * Spawns a whole process and times it from spawn to exit. With `maxRss`, runs it under
 * /usr/bin/time (when present) and returns its peak resident memory in MiB.
 */
export async function timeProcess(file, args, {maxRss = false, stdout = false, env} = {}) {
  const useTime = maxRss && existsSync('/usr/bin/time')
  const [cmd, argv] = useTime ? ['/usr/bin/time', ['-f', 'BENCH_MAXRSS_KB=%M', file, ...args]] : [file, args]
  const t0 = performance.now()
  const startMs = Date.now()
  const {code, out, stderr} = await new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, {stdio: ['ignore', stdout ? 'pipe' : 'ignore', 'pipe'], ...(env ? {env} : {})})
    let out = ''
    let stderr = ''
    child.stdout?.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, out, stderr}))
  })
  const secs = (performance.now() - t0) / 1000
  const endMs = Date.now()
  const m = /BENCH_MAXRSS_KB=(\d+)/.exec(stderr)
  return {secs, code, stdout: out, stderr, startMs, endMs, maxRssMb: m ? Number(m[1]) / 1024 : undefined}
}

/** The last lines of a process's stderr, for an error message. */
export const tail = (stderr, n = 3) => stderr.trim().split('\n').slice(-n).join(' | ')

/**
 * Opens the benchmark's working directory, snapshots and loads the compiled kube-node and connects
 * the floor's CRI client. `prefix` starts the pod names (the leftover check counts by it).
 * Throws with "cannot load kube-node …" when dist/ is missing or broken (the work dir is removed).
 */
export async function openHarness({endpoint, source = REPO, snapshot = true, nodeName = 'bench', prefix = 'knb', maxPods = MAX_PODS}) {
  const ENDPOINT = endpoint
  const SOURCE = source
  const NODE_NAME = nodeName
  const RUN_ID = randomBytes(3).toString('hex')
  const PREFIX = `${prefix}-${RUN_ID}-`

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

  // ---------------------------------------------------------------- setup and checks

  const work = await mkdtemp(join(tmpdir(), 'kube-node-bench-'))

  // The compiled kube-node is copied first (dist, bin, proto, package.json, oclif.manifest.json;
  // node_modules linked), so that a rebuild of dist/ while the benchmark runs cannot change or
  // break what it measures.
  async function takeSnapshot() {
    if (!snapshot) return SOURCE
    const dir = join(work, 'kube-node')
    await mkdir(dir)
    for (const d of ['dist', 'bin', 'proto']) await cp(join(SOURCE, d), join(dir, d), {recursive: true})
    await cp(join(SOURCE, 'package.json'), join(dir, 'package.json'))
    // The CLI's start reads its command list from the manifest the build writes (without it,
    // oclif loads every command module): measure the CLI as it is installed.
    if (existsSync(join(SOURCE, 'oclif.manifest.json'))) await cp(join(SOURCE, 'oclif.manifest.json'), join(dir, 'oclif.manifest.json'))
    await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'))
    return dir
  }
  let ROOT, createGrpcRuntime, createNode, runPods, downPods, silentLogger
  try {
    ROOT = await takeSnapshot()
    const dist = (p) => import(pathToFileURL(join(ROOT, 'dist', p)).href)
    ;({createGrpcRuntime} = await dist('cri/grpc/client.js'))
    ;({createNode} = await dist('node/create-node.js'))
    ;({runPods} = await dist('services/run.js'))
    ;({downPods} = await dist('services/down.js'))
    ;({silentLogger} = await dist('util/logger.js'))
  } catch (err) {
    await rm(work, {recursive: true, force: true})
    throw new Error(`cannot load kube-node from ${join(SOURCE, 'dist')} (run npm run build): ${err?.message ?? err}`)
  }

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
    // The module the benchmark runs (an older layout's dist/node/run.js may linger beside it).
    const built = statSync(join(SOURCE, 'dist', 'services', 'run.js')).mtime.toISOString()
    return {commit, dirty, built}
  }
  const BUILD = buildInfo()
  const baseCommand = readFileSync(join(ROOT, 'dist', 'cli', 'base-command.js'), 'utf8')
  // Older builds have no --max-pods flag.
  const CLI_MAX_PODS = baseCommand.includes("'max-pods'") ? ['--max-pods', String(maxPods)] : []
  // `run` judges a pod only after it has run steadily for --stable-for (5 s by default): the
  // benchmark measures convergence, as the in-process path does (stableForMs 0).
  const runCommand = existsSync(join(ROOT, 'dist/commands/run.js')) ? readFileSync(join(ROOT, 'dist/commands/run.js'), 'utf8') : ''
  const CLI_STABLE_FOR = runCommand.includes("'stable-for'") ? ['--stable-for', '0'] : []
  // The CLI's default parallelism, as the build has it (read, not imported: importing runs oclif).
  const cliParallelism = Number(/\bparallelism:\s*(\d+)/.exec(baseCommand)?.[1]) || undefined
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

  /** One pod's manifest; `tag` tells apart the pod sets of one run (k: converged pods). */
  function manifest(i, tag = 'k') {
    return `apiVersion: v1
kind: Pod
metadata:
  name: ${PREFIX}${tag}${i}
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

  async function manifestDir(n, tag = 'k') {
    const dir = join(work, tag === 'k' ? `manifests-${n}` : `manifests-${tag}-${n}`)
    await mkdir(dir, {recursive: true})
    await Promise.all(Array.from({length: n}, (_, i) => writeFile(join(dir, `pod-${i}.yaml`), manifest(i, tag))))
    return dir
  }

  /** The node the benchmark runs as; `node` overrides nodeName, rootDir, podLogsDir (another node's pods). */
  function nodeConfig(parallelism, node = {}) {
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
      maxPods,
      ...node,
    }
  }

  /** Removes the pods of `dir` (only those: other pods on this runtime are not the benchmark's). */
  async function downDir(dir, node = {}) {
    const kn = await createNode(nodeConfig(4, node), silentLogger)
    try {
      await downPods(kn, {locations: [dir]})
    } catch (err) {
      log(`warning: kube-node down: ${err?.message ?? err}`)
    } finally {
      kn.close()
    }
  }

  function countsDelta(after, before) {
    const out = {}
    for (const [k, v] of Object.entries(after)) if (v - (before[k] ?? 0) > 0) out[k] = v - (before[k] ?? 0)
    return out
  }

  /** As kubeNodeRun, but in a new Node process (bench/lib/fresh-run.mjs): a cold start of the same code. */
  async function freshRun(dir, n, parallelism) {
    try {
      const child = await timeProcess(process.execPath, [join(REPO, 'bench/lib/fresh-run.mjs'), ROOT, dir, JSON.stringify(nodeConfig(parallelism))], {stdout: true})
      const res = JSON.parse(child.stdout.trim().split('\n').at(-1) || '{}')
      if (child.code !== 0 || res.failed !== 0) throw new Error(`fresh-process run: ${res.failed ?? '?'}/${n} pods not running: ${res.reason ?? tail(child.stderr)}`)
      return {secs: res.secs, cpu: res.cpu}
    } finally {
      await downDir(dir)
    }
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

  /** The CLI's global flags for the benchmark's node (or another node's, with `node`). */
  function cliFlags(node = {}) {
    const c = nodeConfig(0, node)
    return ['--root-dir', c.rootDir, '--pod-logs-dir', c.podLogsDir, '--node-name', c.nodeName, '--runtime-endpoint', ENDPOINT]
  }

  /**
   * The whole command, process start to exit, as a user runs it (CLI default parallelism). The
   * pods are removed afterwards, untimed, unless `keep` (then the caller removes them with downDir).
   */
  async function commandRun(dir, {node = {}, keep = false, exe} = {}) {
    const args = ['run', '-f', dir, ...cliFlags(node), '--timeout', `${TIMEOUT_MS / 1000}s`, ...CLI_MAX_PODS, ...CLI_STABLE_FOR]
    try {
      // `exe`: the single executable instead of `node bin/run.js`, timed as podman is (no /usr/bin/time).
      const {secs, code, stderr, maxRssMb, startMs, endMs} = exe ? await timeProcess(exe, args) : await timeProcess(process.execPath, [join(ROOT, 'bin/run.js'), ...args], {maxRss: true})
      if (code !== 0) throw new Error(`kube-node run exited ${code}: ${tail(stderr)}`)
      return {secs, maxRssMb, phases: commandPhases(stderr, startMs, endMs)}
    } finally {
      if (!keep) await downDir(dir, node)
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

  /** Closes the floor's connection and removes the working directory. */
  async function close() {
    floorRt.close()
    await rm(work, {recursive: true, force: true})
  }

  return {
    endpoint: ENDPOINT,
    runId: RUN_ID,
    prefix: PREFIX,
    nodeName: NODE_NAME,
    work,
    root: ROOT,
    build: BUILD,
    cliMaxPods: CLI_MAX_PODS,
    cliStableFor: CLI_STABLE_FOR,
    maxPods,
    cliParallelism,
    floorRt,
    createGrpcRuntime,
    get others() {
      return others
    },
    preflight,
    cpuMeter,
    floorRun,
    manifest,
    manifestDir,
    nodeConfig,
    downDir,
    kubeNodeRun,
    freshRun,
    cliFlags,
    commandRun,
    timedRuntime,
    removeSandbox,
    sweep,
    ctrLeftovers,
    close,
  }
}
