#!/usr/bin/env node
// Soak: `kube-node watch` over 50 pods while the manifests churn (one pod's env edited every
// second, so its container is replaced; one pod crash-looping) for N minutes. Samples kube-node's
// RSS every 10 s; at the end stops the churn and checks that every pod converged (Running, the
// last edits applied), that nothing leaked in the runtime (one sandbox per pod, one running
// container per container, at most one dead one per container name after GC), then stops
// `watch`, runs `down --all` and checks that nothing of node `soak` is left.
//
//   npm run build && node bench/soak.mjs [--minutes 10] [--pods 50] [--endpoint unix:///…]
//
// Needs the e2e runtime (`bash scripts/runtime.sh up`). Touches only pods of node `soak`.
// Progress goes to stderr, the figures and the verdict to stdout; exit 0 only on PASS.
import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync, createWriteStream} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {parseArgs} from 'node:util'

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..')
const NODE_NAME = 'soak'
const IMAGE = 'localhost:5000/busybox:latest'
const POD_UID_LABEL = 'io.kubernetes.pod.uid'
const NODE_LABEL = 'kube-node.io/node'
const CRASHER = 'crasher'

const {values: flags} = parseArgs({
  options: {
    minutes: {type: 'string', default: '10'},
    pods: {type: 'string', default: '50'},
    endpoint: {type: 'string', default: process.env.CONTAINER_RUNTIME_ENDPOINT || 'unix:///run/kube-node-e2e/containerd.sock'},
    'keep-dir': {type: 'boolean', default: false},
  },
})
const MINUTES = Number(flags.minutes)
const PODS = Number.parseInt(flags.pods, 10)
const ENDPOINT = flags.endpoint
if (!(MINUTES > 0) || !(PODS >= 2)) throw new Error('--minutes must be > 0 and --pods >= 2')

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

const podName = (i) => (i === PODS - 1 ? CRASHER : `p${String(i).padStart(2, '0')}`)

function podYaml(name, churn) {
  const crash = name === CRASHER
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
`
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
    if (p.metadata.name.startsWith(`${CRASHER}-`)) continue
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
    log(`work dir ${work}; ${PODS} pods, ${MINUTES} min, endpoint ${ENDPOINT}`)
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

    let edits = 0
    churnTimer = setInterval(() => {
      const name = podName(edits % (PODS - 1)) // never the crasher
      edits++
      writePod(name, edits)
      expected.set(name, edits)
    }, 1000)
    const churnEnd = Date.now() + MINUTES * 60_000
    while (Date.now() < churnEnd) {
      await sleep(Math.min(60_000, churnEnd - Date.now()))
      const last = samples.at(-1)
      log(`${Math.round((Date.now() - t0) / 1000)}s: ${edits} edits, RSS ${last ? mib(last.kb) : '?'} MiB`)
      if (watch.exitCode !== null) throw new Error(`watch exited early (${watch.exitCode}); see ${join(work, 'watch.log')}`)
    }
    clearInterval(churnTimer)
    churnTimer = undefined
    log(`churn stopped after ${edits} edits; waiting for convergence`)

    await waitFor('final convergence', 3 * 60_000, async () => converged(await getPods()))
    // The last edit of every pod is what runs (the env is read from inside the container).
    await waitFor('last edits applied', 2 * 60_000, async () => {
      for (const [name, churn] of expected) {
        if (name === CRASHER) continue
        const r = await kn(['exec', name, '--', 'sh', '-c', 'echo $CHURN'])
        if (r.code !== 0 || r.stdout.trim() !== String(churn)) return `${name}: CHURN=${r.stdout.trim() || r.stderr.trim()}, want ${churn}`
      }
      return undefined
    })
    const pods = await getPods()
    const uids = new Set(pods.map((p) => p.metadata.uid))
    const crasher = pods.find((p) => p.metadata.name === `${CRASHER}-${NODE_NAME}`)
    const crasherRestarts = crasher?.status.containerStatuses?.[0]?.restartCount ?? 0
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
    // "Flat": what is left after the churn is within 25 % (or 20 MiB) of the converged baseline.
    const growth = (endRss ?? 0) - baseRss
    const flat = growth <= Math.max(20 * 1024, 0.25 * baseRss)
    const checks = [
      ['memory flat', flat, `start ${mib(baseRss)} MiB, end ${mib(endRss ?? 0)} MiB, max ${mib(maxRss)} MiB (growth ${mib(growth)} MiB)`],
      ['every pod converged', true, `${pods.length} pods Running, last edits applied, crasher restarts ${crasherRestarts}`],
      ['no leaks while running', true, `${inv.sandboxes.length} sandboxes, ${inv.containers.length} containers (${inv.containers.filter((c) => c.state === 'CONTAINER_RUNNING').length} running)`],
      ['watch stopped on SIGTERM', exit.code === 0, `exit ${exit.code ?? exit.signal}`],
      ['down --all removes everything', down.code === 0 && left.sandboxes.length === 0 && left.containers.length === 0, `exit ${down.code}; ${left.sandboxes.length} sandboxes, ${left.containers.length} containers left`],
    ]
    const out = [
      `soak: ${PODS} pods, ${MINUTES} min of churn, ${edits} edits (one pod's container replaced per edit)`,
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
