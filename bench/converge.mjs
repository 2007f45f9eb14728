#!/usr/bin/env node
// Benchmark: how long kube-node takes to converge N one-container pods, against the floor of the
// same work done with raw CRI calls (RunPodSandbox, CreateContainer, StartContainer per pod) in
// the same run, on the same runtime. Prints medians and ratios; asserts nothing.
//
//   npm run build && node bench/converge.mjs [--sizes 1,10,50] [--reps 3] [--parallelism 1,2,4,8,16]
//                                            [--floor-concurrency 1,4,16] [--no-command] [--executable] [--fresh] [--profile] [--json]
//                                            [--max-pods 110] [--executable]
//
// --executable times the command through the single executable (npm run build:sea), the Node it
// embeds, instead of `node bin/run.js` on the Node running this script.
//
// Needs a CRI runtime (CONTAINER_RUNTIME_ENDPOINT, else the e2e one started by
// `bash scripts/runtime.sh up`) with localhost:5000/busybox:latest present. Neither path pulls:
// the manifests say imagePullPolicy IfNotPresent and the floor never calls PullImage. Everything
// the benchmark creates is removed, untimed, after each measurement and checked at the end.
// The floor, kube-node in-process, the command and the cleanup live in lib/harness.mjs (shared
// with peer.mjs).
import {cpus} from 'node:os'
import {join} from 'node:path'
import {parseArgs} from 'node:util'
import {performance} from 'node:perf_hooks'
import {REPO, E2E_ENDPOINT, IMAGE, MAX_PODS, checkLoad, log, median, rotated, sleep, ints, openHarness} from './lib/harness.mjs'

const {values: flags} = parseArgs({
  options: {
    sizes: {type: 'string', default: '1,10,50'},
    reps: {type: 'string', default: '3'},
    parallelism: {type: 'string', default: '1,2,4,8,16'},
    'floor-concurrency': {type: 'string', default: '1,4,16'},
    'no-command': {type: 'boolean', default: false},
    executable: {type: 'boolean', default: false},
    fresh: {type: 'boolean', default: false},
    profile: {type: 'boolean', default: false},
    json: {type: 'boolean', default: false},
    'no-snapshot': {type: 'boolean', default: false},
    'max-pods': {type: 'string', default: String(MAX_PODS)},
    'kube-node-root': {type: 'string', default: REPO},
    endpoint: {type: 'string', default: process.env.CONTAINER_RUNTIME_ENDPOINT || E2E_ENDPOINT},
    help: {type: 'boolean', short: 'h', default: false},
  },
})
if (flags.help) {
  process.stdout.write(readHeader())
  process.exit(0)
}
const SIZES = ints(flags.sizes)
const REPS = Math.max(1, Number.parseInt(flags.reps, 10) || 1)
const PARALLELISM = ints(flags.parallelism)
const FLOOR_CONC = ints(flags['floor-concurrency'])
const ENDPOINT = flags.endpoint

function readHeader() {
  return 'node bench/converge.mjs [--sizes 1,10,50] [--reps 3] [--parallelism 1,2,4,8,16] [--floor-concurrency 1,4,16] [--no-command] [--executable] [--fresh] [--profile] [--json] [--endpoint URL] [--kube-node-root DIR] [--no-snapshot] [--max-pods 110]\n'
}

let h
try {
  h = await openHarness({endpoint: ENDPOINT, source: flags['kube-node-root'], snapshot: !flags['no-snapshot'], nodeName: 'bench', prefix: 'knb', maxPods: Number.parseInt(flags['max-pods'], 10) || MAX_PODS})
} catch (err) {
  log(err?.message ?? String(err))
  process.exit(1)
}
const {floorRun, kubeNodeRun, commandRun, manifestDir, preflight, sweep, ctrLeftovers, timedRuntime, createGrpcRuntime} = h
const RUN_ID = h.runId
const PREFIX = h.prefix
const BUILD = h.build

let interrupted = false
process.on('SIGINT', () => {
  if (interrupted) process.exit(130)
  interrupted = true
  log('interrupted: cleaning up')
  sleep(1000)
    .then(sweep)
    .finally(() => h.close().finally(() => process.exit(130)))
})

// ---------------------------------------------------------------- main

const fmt = (x) => (x === undefined ? '-' : x.toFixed(3))
const fmtR = (x) => (x === undefined ? '-' : `${x.toFixed(2)}x`)

async function main() {
  const version = await preflight()
  log(`runtime ${version.runtimeName} ${version.runtimeVersion} at ${ENDPOINT}; ${IMAGE} present; run id ${RUN_ID}`)
  log(`sizes ${SIZES.join(',')}, floor concurrency ${FLOOR_CONC.join(',')}, kube-node parallelism ${PARALLELISM.join(',')}, ${REPS} reps (median)`)
  const loadStart = checkLoad('before starting')
  const started = performance.now()
  const results = []
  for (const n of SIZES) {
    const dir = await manifestDir(n)
    const floor = Object.fromEntries(FLOOR_CONC.map((c) => [c, []]))
    // With one pod, parallelism makes no difference: measure one value only.
    const ps = n === 1 ? [Math.min(...PARALLELISM.filter((p) => p >= 1))] : PARALLELISM.filter((p) => p <= Math.max(n, 1) || p === PARALLELISM[0])
    const kn = Object.fromEntries(ps.map((p) => [p, []]))
    const cmd = []
    const fresh = []
    // In-process in a new Node process, at the highest parallelism measured.
    const freshP = Math.max(...ps)
    const phases = []
    const rss = []
    const floorCpu = Object.fromEntries(FLOOR_CONC.map((c) => [c, []]))
    const knCpu = Object.fromEntries(ps.map((p) => [p, []]))
    let counts = {}
    // Interleaved, so that drift (other load, containerd's own state) hits every column alike.
    const columns = [
      ...FLOOR_CONC.map((c) => async () => {
        const res = await floorRun(n, c)
        floor[c].push(res.secs)
        floorCpu[c].push(res.cpu)
      }),
      ...ps.map((p) => async () => {
        const res = await kubeNodeRun(dir, n, p)
        kn[p].push(res.secs)
        knCpu[p].push(res.cpu)
        counts = res.counts
      }),
      ...(flags.fresh ? [async () => fresh.push((await h.freshRun(dir, n, freshP)).secs)] : []),
      ...(flags['no-command']
        ? []
        : [
            async () => {
              const res = await commandRun(dir, flags.executable ? {exe: join(h.root, 'dist', `kube-node-${process.platform}-${process.arch}`)} : {})
              cmd.push(res.secs)
              if (res.phases) phases.push(res.phases)
              if (res.maxRssMb !== undefined) rss.push(res.maxRssMb)
            },
          ]),
    ]
    for (let r = 0; r < REPS; r++) {
      for (const column of rotated(columns, r)) {
        await column()
        await sleep(300)
      }
      log(`N=${n} rep ${r + 1}/${REPS} done (${((performance.now() - started) / 1000).toFixed(0)} s so far, load average ${checkLoad('now').toFixed(2)})`)
    }
    const floorMed = Object.fromEntries(FLOOR_CONC.map((c) => [c, median(floor[c])]))
    const best = Math.min(...Object.values(floorMed))
    const bestConc = Number(Object.entries(floorMed).find(([, v]) => v === best)[0])
    const knMed = Object.fromEntries(ps.map((p) => [p, median(kn[p])]))
    // Said at once: a runtime restart later in a long run must not lose what was measured.
    log(`N=${n}: floor ${FLOOR_CONC.map((c) => `c=${c} ${fmt(floorMed[c])}`).join(', ')}; kube-node ${ps.map((p) => `P=${p} ${fmt(knMed[p])} (${fmtR(knMed[p] / best)})`).join(', ')}; cmd ${cmd.length ? `${fmt(median(cmd))} (${fmtR(median(cmd) / best)})` : '-'}; samples ${JSON.stringify({floor, kn, fresh, cmd, phases})}`)
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
      fresh: fresh.length ? {parallelism: freshP, secs: median(fresh), samples: fresh} : undefined,
      commandMaxRssMb: rss.length ? Math.max(...rss) : undefined,
      commandPhases: phases.length ? {start: median(phases.map((p) => p.start)), converge: median(phases.map((p) => p.converge)), finish: median(phases.map((p) => p.finish))} : undefined,
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
  await h.close()
  const totalSecs = (performance.now() - started) / 1000
  const load = {start: loadStart, end: checkLoad('at the end'), cpus: cpus().length}

  if (flags.json) {
    process.stdout.write(JSON.stringify({runtime: version, endpoint: ENDPOINT, reps: REPS, build: BUILD, otherSandboxes: h.others, results, profile, swept, leftovers, totalSecs, load}, null, 2) + '\n')
    return
  }
  const pCols = [...new Set(results.flatMap((r) => Object.keys(r.kubeNode).map(Number)))].sort((a, b) => a - b)
  const out = []
  out.push(`kube-node converge benchmark — ${version.runtimeName} ${version.runtimeVersion}, ${load.cpus} CPUs, ${REPS} reps, medians in seconds (load average ${load.start.toFixed(2)} at start, ${load.end.toFixed(2)} at end)`)
  out.push(`other kube-node pods on this runtime at start: ${h.others} sandboxes`)
  out.push(`kube-node ${BUILD.commit}${BUILD.dirty ? ' + uncommitted src changes' : ''}, dist built ${BUILD.built}`)
  out.push(`floor = raw CRI RunPodSandbox+CreateContainer+StartContainer per pod at concurrency c; kube-node = runPods(wait running) in-process at parallelism P;`)
  out.push(`cmd = \`${flags.executable ? 'dist/kube-node-<platform>-<arch>' : 'node bin/run.js'} run -f DIR ${[...h.cliStableFor, ...h.cliMaxPods].join(' ')}\` process start to exit (CLI default parallelism${h.cliParallelism ? ` ${h.cliParallelism}` : ''}). No image pulls in any path (image present, IfNotPresent).`)
  if (load.start > load.cpus || load.end > load.cpus) out.push(`WARNING: load average above the ${load.cpus} cores during this run: the figures are skewed by other work`)
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
    if (r.fresh) out.push(`  in a fresh process (the same runPods at P=${r.fresh.parallelism}, in a new Node process): ${fmt(r.fresh.secs)} s (${fmtR(r.fresh.secs / r.best)} of the best floor)`)
    const ph = r.commandPhases
    if (ph) out.push(`  cmd phases (medians): start ${fmt(ph.start)} s (Node, bundle, manifests, first reads), converge ${fmt(ph.converge)} s (first step to last pod Running), finish ${fmt(ph.finish)} s (flush, report, exit)`)
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
  await h.close()
  process.exitCode = 1
}
