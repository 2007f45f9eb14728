#!/usr/bin/env node
// Benchmark of the status and event stores (the one-truth issue). Prints figures; asserts nothing.
//
//   npm run build && node bench/status-store.mjs [--pods 50] [--seconds 60] [--reps 5]
//
// 1. writes: `watch` with N converged pods and one crash-looping container; the files the stores
//    write per minute (status records and event files), read from its /metrics
//    (kube_node_store_writes_total), beside the crash loop's own restarts in the same minute.
// 2. get: the median time of `kube-node get pods -o json` for the N pods with their status records,
//    against the same command with the records moved away (the runtime view alone) and against
//    `node -e 0`, measured in the same run.
import {spawn, execFileSync} from 'node:child_process'
import {mkdtemp, writeFile, rm, mkdir, readdir, rename} from 'node:fs/promises'
import {existsSync} from 'node:fs'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join, dirname} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'
import {performance} from 'node:perf_hooks'

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..')
const IMAGE = 'localhost:5000/busybox:latest'
const NODE = 'benchs'
const {values: flags} = parseArgs({options: {pods: {type: 'string', default: '50'}, seconds: {type: 'string', default: '60'}, reps: {type: 'string', default: '5'}}})
const PODS = Number(flags.pods)
const SECONDS = Number(flags.seconds)
const REPS = Number(flags.reps)

const work = await mkdtemp(join(tmpdir(), 'kn-bench-store-'))
const root = join(work, 'root')
const logs = join(work, 'logs')
const manifests = join(work, 'manifests')
await mkdir(manifests, {recursive: true})
const global = ['--root-dir', root, '--pod-logs-dir', logs, '--node-name', NODE]
const kn = (args) => execFileSync(process.execPath, [join(REPO, 'bin/run.js'), ...args, ...global], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']})

async function freePort() {
  const s = createServer()
  await new Promise((r) => s.listen(0, '127.0.0.1', r))
  const port = s.address().port
  await new Promise((r) => s.close(r))
  return port
}

const pod = (name, command) => `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {name: main, image: ${IMAGE}, command: [sh, -c, ${JSON.stringify(command)}]}\n`
for (let i = 0; i < PODS; i++) await writeFile(join(manifests, `p${i}.yaml`), pod(`p${i}`, 'while true; do sleep 5; done'))
await writeFile(join(manifests, 'crasher.yaml'), pod('crasher', 'sleep 2; exit 1'))

const port = await freePort()
const watch = spawn(process.execPath, [join(REPO, 'bin/run.js'), 'watch', manifests, '--port', String(port), '--healthz-port', '0', ...global], {stdio: ['ignore', 'ignore', 'ignore']})
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function metrics() {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
  const value = (file) => Number(new RegExp(`^kube_node_store_writes_total\\{file="${file}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0)
  return {status: value('status'), events: value('events')}
}
async function pods() {
  return (await (await fetch(`http://127.0.0.1:${port}/pods`)).json()).items
}
const restarts = (items) => items.find((p) => p.metadata.name === `crasher-${NODE}`)?.status.containerStatuses?.[0]?.restartCount ?? 0

try {
  const deadline = Date.now() + 300_000
  for (;;) {
    const items = await pods().catch(() => [])
    const running = items.filter((p) => p.status?.containerStatuses?.[0]?.state?.running).length
    if (items.length === PODS + 1 && running >= PODS) break
    if (Date.now() > deadline) throw new Error(`only ${running} of ${PODS} pods running`)
    await sleep(1000)
  }
  // Let the start-up writes settle, then count a steady minute.
  await sleep(5000)
  const before = await metrics()
  const restartsBefore = restarts(await pods())
  await sleep(SECONDS * 1000)
  const after = await metrics()
  const restartsAfter = restarts(await pods())
  const perMinute = (n) => ((n * 60) / SECONDS).toFixed(1)
  console.log(`store writes with ${PODS} running pods and 1 crash loop, per minute: status ${perMinute(after.status - before.status)}, events ${perMinute(after.events - before.events)} (the crash loop restarted ${restartsAfter - restartsBefore} times in ${SECONDS}s)`)

  watch.kill('SIGTERM')
  await new Promise((r) => watch.on('exit', r))
  const time = (cmd) => {
    const runs = []
    for (let i = 0; i < REPS; i++) {
      const t = performance.now()
      cmd()
      runs.push(performance.now() - t)
    }
    return runs.sort((a, b) => a - b)[Math.floor(REPS / 2)]
  }
  const nodeStart = time(() => execFileSync(process.execPath, ['-e', '0']))
  const withRecords = time(() => kn(['get', 'pods', '-o', 'json']))
  // The same command with the records moved away: the runtime view alone.
  const podsDir = join(root, 'pods')
  const uids = await readdir(podsDir)
  for (const uid of uids) if (existsSync(join(podsDir, uid, 'status.json'))) await rename(join(podsDir, uid, 'status.json'), join(podsDir, uid, 'status.json.away'))
  const withoutRecords = time(() => kn(['get', 'pods', '-o', 'json']))
  for (const uid of uids) if (existsSync(join(podsDir, uid, 'status.json.away'))) await rename(join(podsDir, uid, 'status.json.away'), join(podsDir, uid, 'status.json'))
  console.log(`get pods -o json, ${PODS + 1} pods, median of ${REPS}: ${(withRecords / 1000).toFixed(3)} s with status records, ${(withoutRecords / 1000).toFixed(3)} s without (added ${((withRecords - withoutRecords) / 1000).toFixed(3)} s); node -e 0: ${(nodeStart / 1000).toFixed(3)} s (${(withRecords / nodeStart).toFixed(2)}×)`)
} finally {
  if (watch.exitCode === null) {
    watch.kill('SIGTERM')
    await new Promise((r) => watch.on('exit', r))
  }
  try {
    kn(['down', '--all'])
  } catch {}
  await rm(work, {recursive: true, force: true})
}
