#!/usr/bin/env node
// Soak: `kube-node watch` over a full node (110 pods, the kubelet's maxPods) while the manifests
// churn (one pod's env edited every second, so its container is replaced), some pods crash-loop
// and every tenth pod is probed (exec readiness probe every 2 s, exec liveness probe every 5 s),
// for N minutes. Samples kube-node's RSS every 10 s; at the end stops the churn and checks that
// the RSS stayed flat (the median of the last window within 5% of the first window after the
// warm-up; a window is 10 minutes, or a third of a shorter run), that no crash-loop restart was
// missed (each crasher restarted at least as often as the kubelet's back-off allows, less one),
// that every pod converged (Running, the last edits applied), that nothing leaked in the runtime
// (one sandbox per pod, one running container per container, at most one dead one per container
// name after GC), then stops `watch`, runs `down --all` and checks that nothing of node `soak` is
// left.
//
//   npm run build && node bench/soak.mjs [--minutes 60] [--warmup-minutes 5] [--pods 110]
//                                        [--crashers 2] [--endpoint unix:///…]
//
// Needs the e2e runtime (`bash scripts/runtime.sh up`). Touches only pods of node `soak`.
// Progress goes to stderr, the figures and the verdict to stdout; exit 0 only on PASS.
import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync, createWriteStream} from 'node:fs'
import {cpus, loadavg, tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {parseArgs} from 'node:util'

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..')
const NODE_NAME = 'soak'
const IMAGE = 'localhost:5000/busybox:latest'
const POD_UID_LABEL = 'io.kubernetes.pod.uid'
const NODE_LABEL = 'kube-node.io/node'
const CRASHER = 'crasher'
// The kubelet's crash-loop back-off: 10 s, doubling, at most 5 min.
const BACKOFF_START_S = 10
const BACKOFF_MAX_S = 300

const {values: flags} = parseArgs({
  options: {
    minutes: {type: 'string', default: '60'},
    'warmup-minutes': {type: 'string', default: '5'},
    pods: {type: 'string', default: '110'},
    crashers: {type: 'string', default: '2'},
    endpoint: {type: 'string', default: process.env.CONTAINER_RUNTIME_ENDPOINT || 'unix:///run/kube-node-e2e/containerd.sock'},
    'keep-dir': {type: 'boolean', default: false},
  },
})
const MINUTES = Number(flags.minutes)
const WARMUP_MINUTES = Number(flags['warmup-minutes'])
const PODS = Number.parseInt(flags.pods, 10)
const CRASHERS = Number.parseInt(flags.crashers, 10)
const ENDPOINT = flags.endpoint
if (!(MINUTES > 0) || !(WARMUP_MINUTES >= 0) || !(CRASHERS >= 1) || !(PODS > CRASHERS)) {
  throw new Error('--minutes must be > 0, --warmup-minutes >= 0, --crashers >= 1 and --pods > --crashers')
}

const work = mkdtempSync(join(tmpdir(), 'kn-soak-'))
const manifests = join(work, 'manifests')
const dirs = {root: join(work, 'root'), logs: join(work, 'logs')}
mkdirSync(manifests, {recursive: true})

const log = (msg) => process.stderr.write(`${new Date().toISOString()} soak: ${msg}\n`)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const mib = (kb) => (kb / 1024).toFixed(1)

function globalArgs() {
  return ['--runtime-endpoint', ENDPOINT, '--root-dir', dirs.root, '--pod-logs-dir', dirs.logs, '--node-name', NODE_NAME]
}

/** Runs the CLI to completion (global flags go before a `--`, which starts exec's command). */
function kn(args) {
  const dash = args.indexOf('--')
  const full = dash < 0 ? [...args, ...globalArgs()] : [...args.slice(0, dash), ...globalArgs(), ...args.slice(dash)]
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO, 'bin/run.js'), ...full], {env: {...process.env, NO_COLOR: '1'}})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', (code) => resolve({code, stdout, stderr}))
    child.stdin.end()
  })
}

// The last CRASHERS pods crash-loop; the others are churned.
const isCrasher = (name) => name.startsWith(CRASHER)
const podName = (i) => (i >= PODS - CRASHERS ? `${CRASHER}${i - (PODS - CRASHERS)}` : `p${String(i).padStart(3, '0')}`)
const CHURNED = PODS - CRASHERS
// Probe traffic: exec probes (each one an ExecSync through the runtime) on every tenth pod.
const probed = (name) => !isCrasher(name) && Number(name.slice(1)) % 10 === 0
const PROBES = `    readinessProbe: {exec: {command: [test, -d, /proc/1]}, periodSeconds: 2}
    livenessProbe: {exec: {command: ["true"]}, periodSeconds: 5, failureThreshold: 3}
`

function podYaml(name, churn) {
  const crash = isCrasher(name)
  const command = crash ? 'echo crashing; exit 1' : "trap 'exit 0' TERM; while true; do sleep 1 & wait $!; done"
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  terminationGracePeriodSeconds: 2
  containers:
  - name: main
    image: ${IMAGE}
    imagePullPolicy: IfNotPresent
    command: ["sh", "-c", ${JSON.stringify(command)}]
    env:
    - {name: CHURN, value: "${churn}"}
${probed(name) ? PROBES : ''}`
}

/** Restarts the kubelet's back-off allows a container that fails at once in `secs`. */
function expectedRestarts(secs) {
  let t = 0
  let n = 0
  for (let delay = BACKOFF_START_S; ; delay = Math.min(BACKOFF_MAX_S, delay * 2)) {
    t += delay + 1 // the back-off, and about a second to start and fail again
    if (t > secs) return n
    n++
  }
}

const medianOf = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/**
 * RSS flat: the median of the last window within 5% of the median of the first window after the
 * warm-up (windows of 10 minutes, or a third of a shorter run).
 */
function flatness(samples, churnStartS, churnEndS) {
  const from = churnStartS + WARMUP_MINUTES * 60
  const windowS = Math.min(600, (churnEndS - from) / 3)
  const first = samples.filter((s) => s.t >= from && s.t < from + windowS).map((s) => s.kb)
  const last = samples.filter((s) => s.t > churnEndS - windowS && s.t <= churnEndS).map((s) => s.kb)
  if (!(windowS > 0) || first.length === 0 || last.length === 0) return {ok: false, detail: `too short a run for a window after a ${WARMUP_MINUTES}-minute warm-up`}
  const a = medianOf(first)
  const b = medianOf(last)
  const change = (b - a) / a
  return {ok: Math.abs(change) <= 0.05, detail: `first ${Math.round(windowS)} s after warm-up ${mib(a)} MiB, last ${Math.round(windowS)} s ${mib(b)} MiB (${(change * 100).toFixed(1)}%, limit ±5%)`}
}

/** Atomic write: a dotfile is never read by the file source, the rename is. */
function writePod(name, churn) {
  const tmp = join(manifests, `.${name}.tmp`)
  writeFileSync(tmp, podYaml(name, churn))
  renameSync(tmp, join(manifests, `${name}.yaml`))
}

function rssKb(pid) {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) : undefined
  } catch {
    return undefined
  }
}

async function getPods() {
  const r = await kn(['get', 'pods', '-o', 'json'])
  if (r.code !== 0) throw new Error(`get pods failed: ${r.stderr}`)
  return JSON.parse(r.stdout).items.filter((p) => p.metadata.name.endsWith(`-${NODE_NAME}`))
}

/** Every pod known and Running; every non-crasher container running. */
function converged(pods) {
  if (pods.length !== PODS) return `${pods.length}/${PODS} pods`
  for (const p of pods) {
    if (p.status.phase !== 'Running') return `${p.metadata.name} is ${p.status.phase}`
    if (isCrasher(p.metadata.name)) continue
    const cs = p.status.containerStatuses?.[0]
    if (!cs?.state?.running) return `${p.metadata.name}'s container is not running`
  }
  return undefined
}

async function waitFor(what, timeoutMs, check) {
  const deadline = Date.now() + timeoutMs
  let last = ''
  for (;;) {
    try {
      const problem = await check()
      if (problem === undefined) return
      last = problem
    } catch (err) {
      last = String(err)
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${last}`)
    await sleep(2000)
  }
}

/** The runtime's view through CRI: sandboxes and containers of node `soak`, grouped by pod. */
async function runtimeInventory(rt) {
  const sandboxes = await rt.runtime.listPodSandbox({labelSelector: {[NODE_LABEL]: NODE_NAME}})
  const containers = await rt.runtime.listContainers({labelSelector: {[NODE_LABEL]: NODE_NAME}})
  return {sandboxes, containers}
}

function leakProblems(inv, uids) {
  const problems = []
  const byPod = new Map()
  for (const s of inv.sandboxes) {
    const uid = s.labels[POD_UID_LABEL]
    byPod.set(uid, (byPod.get(uid) ?? 0) + 1)
    if (!uids.has(uid)) problems.push(`sandbox ${s.id.slice(0, 12)} of unknown pod ${uid}`)
  }
  for (const uid of uids) if (byPod.get(uid) !== 1) problems.push(`pod ${uid} has ${byPod.get(uid) ?? 0} sandboxes`)
  const perName = new Map()
  for (const c of inv.containers) {
    const key = `${c.labels[POD_UID_LABEL]}/${c.metadata.name}`
    const e = perName.get(key) ?? {running: 0, dead: 0}
    if (c.state === 'CONTAINER_RUNNING') e.running++
    else e.dead++
    perName.set(key, e)
  }
  for (const [key, e] of perName) {
    if (e.running > 1) problems.push(`${key}: ${e.running} running containers`)
    if (e.dead > 1) problems.push(`${key}: ${e.dead} dead containers`)
  }
  return problems
}

async function main() {
  const {createGrpcRuntime} = await import(pathToFileURL(join(REPO, 'dist/cri/grpc/client.js')).href)
  const rt = createGrpcRuntime({runtimeEndpoint: ENDPOINT})
  const expected = new Map() // pod name -> last CHURN value written
  let watch
  let churnTimer
  let sampler
  const samples = []
  try {
    log(`work dir ${work}; ${PODS} pods (${CRASHERS} crash-looping, ${PODS > 0 ? [...Array(PODS).keys()].map(podName).filter(probed).length : 0} probed), ${MINUTES} min after a ${WARMUP_MINUTES}-minute warm-up counted in, endpoint ${ENDPOINT}`)
    await kn(['down', '--all'])
    for (let i = 0; i < PODS; i++) {
      writePod(podName(i), 0)
      expected.set(podName(i), 0)
    }
    const watchLog = createWriteStream(join(work, 'watch.log'))
    watch = spawn(
      process.execPath,
      [join(REPO, 'bin/run.js'), 'watch', manifests, '--file-check-frequency', '1s', '--port', '0', '--healthz-port', '0', ...globalArgs()],
      {env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'ignore', 'pipe']},
    )
    watch.stderr.pipe(watchLog)
    const watchExit = new Promise((r) => watch.on('exit', (code, signal) => r({code, signal})))
    const t0 = Date.now()
    sampler = setInterval(() => {
      const kb = rssKb(watch.pid)
      if (kb !== undefined) samples.push({t: Math.round((Date.now() - t0) / 1000), kb})
    }, 10_000)

    await waitFor('initial convergence', 5 * 60_000, async () => converged(await getPods()))
    const convergedAt = Math.round((Date.now() - t0) / 1000)
    const baseRss = rssKb(watch.pid)
    log(`all ${PODS} pods converged after ${convergedAt}s; RSS ${mib(baseRss)} MiB; churning for ${MINUTES} min`)

    const churnStartS = Math.round((Date.now() - t0) / 1000)
    let edits = 0
    churnTimer = setInterval(() => {
      const name = podName(edits % CHURNED) // never a crasher
      edits++
      writePod(name, edits)
      expected.set(name, edits)
    }, 1000)
    const churnEnd = Date.now() + MINUTES * 60_000
    while (Date.now() < churnEnd) {
      await sleep(Math.min(60_000, churnEnd - Date.now()))
      const last = samples.at(-1)
      log(`${Math.round((Date.now() - t0) / 1000)}s: ${edits} edits, RSS ${last ? mib(last.kb) : '?'} MiB, load average ${loadavg()[0].toFixed(2)}`)
      if (watch.exitCode !== null) throw new Error(`watch exited early (${watch.exitCode}); see ${join(work, 'watch.log')}`)
    }
    clearInterval(churnTimer)
    churnTimer = undefined
    const churnEndS = Math.round((Date.now() - t0) / 1000)
    log(`churn stopped after ${edits} edits; waiting for convergence`)

    await waitFor('final convergence', 3 * 60_000, async () => converged(await getPods()))
    // The last edit of every pod is what runs (the env is read from inside the container).
    await waitFor('last edits applied', 2 * 60_000, async () => {
      for (const [name, churn] of expected) {
        if (isCrasher(name)) continue
        const r = await kn(['exec', name, '--', 'sh', '-c', 'echo $CHURN'])
        if (r.code !== 0 || r.stdout.trim() !== String(churn)) return `${name}: CHURN=${r.stdout.trim() || r.stderr.trim()}, want ${churn}`
      }
      return undefined
    })
    const pods = await getPods()
    const uids = new Set(pods.map((p) => p.metadata.uid))
    // The crashers have been failing since the first convergence at the latest.
    const crashSecs = (Date.now() - t0) / 1000 - convergedAt
    const crasherRestarts = pods.filter((p) => isCrasher(p.metadata.name)).map((p) => p.status.containerStatuses?.[0]?.restartCount ?? 0)
    const restartsDue = expectedRestarts(crashSecs)
    // Dead containers are collected every minute (at most one kept per container name).
    await waitFor('garbage collected, nothing leaked', 3 * 60_000, async () => {
      const problems = leakProblems(await runtimeInventory(rt), uids)
      return problems.length ? problems.slice(0, 5).join('; ') : undefined
    })
    const inv = await runtimeInventory(rt)
    const endRss = rssKb(watch.pid)
    clearInterval(sampler)
    sampler = undefined

    watch.kill('SIGTERM')
    const exit = await watchExit
    watch = undefined
    const down = await kn(['down', '--all'])
    const left = await runtimeInventory(rt)

    const kbs = samples.map((s) => s.kb)
    const maxRss = Math.max(...kbs, endRss ?? 0)
    const flat = flatness(samples, churnStartS, churnEndS)
    const checks = [
      ['memory flat', flat.ok, `${flat.detail}; converged ${mib(baseRss)} MiB, end ${mib(endRss ?? 0)} MiB, max ${mib(maxRss)} MiB`],
      ['no crash-loop restart missed', crasherRestarts.length === CRASHERS && crasherRestarts.every((n) => n >= restartsDue - 1), `restarts ${crasherRestarts.join(', ')} in ${Math.round(crashSecs)} s; the back-off allows ${restartsDue}`],
      ['every pod converged', true, `${pods.length} pods Running, last edits applied`],
      ['no leaks while running', true, `${inv.sandboxes.length} sandboxes, ${inv.containers.length} containers (${inv.containers.filter((c) => c.state === 'CONTAINER_RUNNING').length} running)`],
      ['watch stopped on SIGTERM', exit.code === 0, `exit ${exit.code ?? exit.signal}`],
      ['down --all removes everything', down.code === 0 && left.sandboxes.length === 0 && left.containers.length === 0, `exit ${down.code}; ${left.sandboxes.length} sandboxes, ${left.containers.length} containers left`],
    ]
    const out = [
      `soak: ${PODS} pods (${CRASHERS} crash-looping, every tenth probed), ${MINUTES} min of churn, ${edits} edits (one pod's container replaced per edit); load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} cores at the end${loadavg()[0] > cpus().length ? ' (WARNING: above the core count, the figures are skewed)' : ''}`,
      `RSS at start (all pods converged, before churn) ${mib(baseRss)} MiB, end ${mib(endRss ?? 0)} MiB, max ${mib(maxRss)} MiB`,
      `RSS samples (s:MiB): ${samples.map((s) => `${s.t}:${mib(s.kb)}`).join(' ')}`,
      ...checks.map(([name, ok, detail]) => `${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`),
    ]
    const pass = checks.every(([, ok]) => ok)
    out.push(`verdict: ${pass ? 'PASS' : 'FAIL'}`)
    process.stdout.write(out.join('\n') + '\n')
    process.exitCode = pass ? 0 : 1
  } catch (err) {
    process.stdout.write(`verdict: FAIL: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  } finally {
    if (churnTimer) clearInterval(churnTimer)
    if (sampler) clearInterval(sampler)
    if (watch) {
      watch.kill('SIGTERM')
      await new Promise((r) => watch.once('exit', r))
      await kn(['down', '--all'])
    }
    rt.close()
    if (!flags['keep-dir'] && process.exitCode === 0) rmSync(work, {recursive: true, force: true})
    else log(`kept ${work} (watch.log inside)`)
  }
}

await main()
