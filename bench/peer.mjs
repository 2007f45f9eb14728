#!/usr/bin/env node
// Benchmark: kube-node beside its peer, podman. For N one-container pods, interleaved within each
// repetition: the raw-CRI floor, kube-node in-process, the whole `kube-node run` command and
// `podman kube play` of the same N pods (then `podman kube down`, untimed for the table); plus the
// start cost of `kube-node --help`, `version` and `get pods` (50 pods present) against `node -e 0`,
// and of the single executable (npm run build:sea) against its embedded Node's `-e 0`, when it is built.
// Prints medians and ratios; asserts nothing.
//
//   npm run build && node bench/peer.mjs [--sizes 1,10,50,110] [--reps 3] [--start-reps 10] [--json]
//
// Needs the private runtime (`bash scripts/runtime.sh up`: containerd, and the registry on
// localhost:5000 serving busybox and pause). Installs podman and netavark from Debian when missing;
// podman runs with a private store, into which the same busybox and pause images are pulled once,
// untimed. No timed path pulls an image.
import {cpus, loadavg} from 'node:os'
import {existsSync} from 'node:fs'
import {writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {parseArgs} from 'node:util'
import {performance} from 'node:perf_hooks'
import {REPO, E2E_ENDPOINT, IMAGE, checkLoad, log, median, rotated, sleep, ints, openHarness, timeProcess, tail} from './lib/harness.mjs'
import {ensurePodman, openPodman} from './lib/podman.mjs'

// The sandbox (pause) image of the private containerd (scripts/runtime.sh): podman's pods get it too.
const PAUSE_IMAGE = 'localhost:5000/pause:3.9'
const GET_NODE = 'benchg'

const {values: flags} = parseArgs({
  options: {
    sizes: {type: 'string', default: '1,10,50,110'},
    reps: {type: 'string', default: '3'},
    'floor-concurrency': {type: 'string', default: '1,4,16'},
    parallelism: {type: 'string'},
    'start-reps': {type: 'string', default: '10'},
    'get-pods': {type: 'string', default: '50'},
    'no-start': {type: 'boolean', default: false},
    'no-install': {type: 'boolean', default: false},
    json: {type: 'boolean', default: false},
    'no-snapshot': {type: 'boolean', default: false},
    'kube-node-root': {type: 'string', default: REPO},
    endpoint: {type: 'string', default: process.env.CONTAINER_RUNTIME_ENDPOINT || E2E_ENDPOINT},
    help: {type: 'boolean', short: 'h', default: false},
  },
})
if (flags.help) {
  process.stdout.write('node bench/peer.mjs [--sizes 1,10,50,110] [--reps 3] [--floor-concurrency 1,4,16] [--parallelism P] [--start-reps 10] [--get-pods 50] [--no-start] [--no-install] [--json] [--endpoint URL] [--kube-node-root DIR] [--no-snapshot]\n')
  process.exit(0)
}
const SIZES = ints(flags.sizes)
const REPS = Math.max(1, Number.parseInt(flags.reps, 10) || 1)
const FLOOR_CONC = ints(flags['floor-concurrency'])
const START_REPS = Math.max(1, Number.parseInt(flags['start-reps'], 10) || 1)
const GET_PODS = Math.max(1, Number.parseInt(flags['get-pods'], 10) || 1)

// Podman first: installing it is untimed and must not happen between measurements.
try {
  ensurePodman({install: !flags['no-install']})
} catch (err) {
  log(`cannot install podman: ${err?.message ?? err}`)
  process.exit(1)
}

let h
try {
  h = await openHarness({endpoint: flags.endpoint, source: flags['kube-node-root'], snapshot: !flags['no-snapshot'], nodeName: 'benchp', prefix: 'knp'})
} catch (err) {
  log(err?.message ?? String(err))
  process.exit(1)
}
// kube-node in-process at the parallelism the whole command uses (the CLI's default), so that the
// two kube-node columns differ by the process only.
const P = flags.parallelism ? ints(flags.parallelism)[0] : (h.cliParallelism ?? 8)
const BIN = join(h.root, 'bin', 'run.js')
const SEA = join(h.root, 'dist', `kube-node-${process.platform}-${process.arch}`)
// The Node the executable embeds (npm run build:sea installs it from the registry, pinned).
const EMBEDDED_NODE = join(REPO, `packaging/node/node_modules/node-${process.platform}-${process.arch}/bin/node`)

let pm
let podmanVersion = '?'
let interrupted = false
process.on('SIGINT', () => {
  if (interrupted) process.exit(130)
  interrupted = true
  log('interrupted: cleaning up')
  sleep(1000)
    .then(h.sweep)
    .then(() => pm?.close())
    .finally(() => h.close().finally(() => process.exit(130)))
})

// ---------------------------------------------------------------- podman

/** One file with the N pods (the same manifests kube-node runs, as one multi-document YAML). */
async function podmanFile(n) {
  const file = join(h.work, `podman-${n}.yaml`)
  await writeFile(file, Array.from({length: n}, (_, i) => h.manifest(i, 'p')).join('---\n'))
  return file
}

/** `podman kube play`, start to exit; `kube down` and a check that nothing remains, untimed. */
async function podmanRun(file, n) {
  let play
  let down
  try {
    play = await pm.play(file, n)
  } finally {
    down = await pm.down(file)
    const left = await pm.clear()
    if (left) log(`warning: ${left} podman pods/containers remained after kube down; removed`)
  }
  return {secs: play.secs, downSecs: down.secs}
}

// ---------------------------------------------------------------- start cost

/** Whole processes, interleaved, `START_REPS` times each after one untimed round (file caches). */
async function startCost() {
  const node = {nodeName: GET_NODE, rootDir: join(h.work, 'get-root'), podLogsDir: join(h.work, 'get-logs')}
  const dir = await h.manifestDir(GET_PODS, 'g')
  try {
    // The pods `get` lists, made by the command itself (untimed).
    await h.commandRun(dir, {node, keep: true})
    const listed = await timeProcess(process.execPath, [BIN, 'get', 'pods', '-o', 'name', ...h.cliFlags(node)], {stdout: true})
    const names = listed.stdout.split('\n').filter(Boolean).length
    if (listed.code !== 0 || names !== GET_PODS) throw new Error(`get pods listed ${names}/${GET_PODS} pods (exit ${listed.code}): ${tail(listed.stderr)}`)
    const rows = [
      {name: 'node -e 0', argv: ['-e', '0']},
      {name: 'kube-node --help', argv: [BIN, '--help']},
      {name: 'kube-node version', argv: [BIN, 'version', '--runtime-endpoint', h.endpoint]},
      {name: 'kube-node get pods', podsPresent: GET_PODS, argv: [BIN, 'get', 'pods', ...h.cliFlags(node)]},
    ]
    // The single executable (npm run build:sea), when built: the same commands without `node`.
    // Its ratios are to its own Node's `-e 0` (the one packaging/node pins), not to this one's.
    if (existsSync(SEA) && existsSync(EMBEDDED_NODE)) {
      rows.push(
        {name: 'embedded Node -e 0', exe: EMBEDDED_NODE, argv: ['-e', '0'], base: true},
        {name: 'single executable --help', exe: SEA, argv: ['--help']},
        {name: 'single executable version', exe: SEA, argv: ['version', '--runtime-endpoint', h.endpoint]},
      )
    } else log(`no single executable at ${SEA} (npm run build:sea): its start cost is not measured`)
    for (const row of rows) row.samples = []
    for (let rep = 0; rep <= START_REPS; rep++) {
      for (const r of rows) {
        const res = await timeProcess(r.exe ?? process.execPath, r.argv)
        if (res.code !== 0) throw new Error(`${r.name} exited ${res.code}: ${tail(res.stderr)}`)
        if (rep > 0) r.samples.push(res.secs)
      }
    }
    // Each row against the `-e 0` row above it: this Node's, then the embedded one's.
    let base = median(rows[0].samples)
    return rows.map(({name, podsPresent, samples, base: isBase}) => {
      if (isBase) base = median(samples)
      return {name, podsPresent, median: median(samples), ratio: median(samples) / base, samples}
    })
  } finally {
    await h.downDir(dir, node)
  }
}

// ---------------------------------------------------------------- main

const s = (x) => (x === undefined ? '-' : `${x.toFixed(2)} s`)
const r = (x) => (x === undefined || !Number.isFinite(x) ? '-' : `${x.toFixed(2)}×`)

async function main() {
  const version = await h.preflight()
  const loadStart = loadavg()
  log(`runtime ${version.runtimeName} ${version.runtimeVersion} at ${h.endpoint}; ${IMAGE} present; run id ${h.runId}`)
  log(`sizes ${SIZES.join(',')}, floor concurrency ${FLOOR_CONC.join(',')}, kube-node in-process P=${P}, ${REPS} reps (median); start cost ${START_REPS} reps`)
  checkLoad('before starting')
  const started = performance.now()

  // Podman's private store, the two images pulled into it (untimed), and one untimed pod: the first
  // `kube play` creates podman's kube network, once.
  pm = await openPodman(join(h.work, 'podman'), {infraImage: PAUSE_IMAGE})
  podmanVersion = pm.version
  try {
    await pm.pull(IMAGE)
    await pm.pull(PAUSE_IMAGE)
  } catch (err) {
    throw new Error(`pulling ${IMAGE} and ${PAUSE_IMAGE} into podman failed (is the registry up? bash scripts/runtime.sh up): ${err?.message ?? err}`)
  }
  await podmanRun(await podmanFile(1), 1)
  log(`podman ${pm.version} ready (private store, images pulled)`)

  const start = flags['no-start'] ? undefined : await startCost()
  if (start) log(`start cost measured (${((performance.now() - started) / 1000).toFixed(0)} s so far)`)

  const results = []
  for (const n of SIZES) {
    const dir = await h.manifestDir(n)
    const file = await podmanFile(n)
    const floor = Object.fromEntries(FLOOR_CONC.map((c) => [c, []]))
    const kn = []
    const cmd = []
    const exe = []
    const rss = []
    const play = []
    const down = []
    // Interleaved, so that drift (other load, the runtimes' own state) hits every column alike.
    const columns = [
      ...FLOOR_CONC.map((c) => async () => floor[c].push((await h.floorRun(n, c)).secs)),
      async () => kn.push((await h.kubeNodeRun(dir, n, P)).secs),
      async () => {
        const c = await h.commandRun(dir)
        cmd.push(c.secs)
        if (c.maxRssMb !== undefined) rss.push(c.maxRssMb)
      },
      // The shipped executable, when built: the issue's 1-pod target is about it.
      ...(existsSync(SEA) ? [async () => exe.push((await h.commandRun(dir, {exe: SEA})).secs)] : []),
      async () => {
        const p = await podmanRun(file, n)
        play.push(p.secs)
        down.push(p.downSecs)
      },
    ]
    for (let rep = 0; rep < REPS; rep++) {
      for (const column of rotated(columns, rep)) {
        await column()
        await sleep(300)
      }
      log(`N=${n} rep ${rep + 1}/${REPS} done (${((performance.now() - started) / 1000).toFixed(0)} s so far)`)
    }
    const floorMed = Object.fromEntries(FLOOR_CONC.map((c) => [c, median(floor[c])]))
    const best = Math.min(...Object.values(floorMed))
    const bestConc = Number(Object.entries(floorMed).find(([, v]) => v === best)[0])
    // Every sample, in the order taken: the medians alone hide how far apart the repetitions were.
    log(`N=${n} samples ${JSON.stringify({floor, kn, cmd, exe, play})}`)
    results.push({
      n,
      floor: floorMed,
      floorSamples: floor,
      best,
      bestConc,
      kubeNode: median(kn),
      kubeNodeSamples: kn,
      parallelism: P,
      command: median(cmd),
      commandSamples: cmd,
      commandMaxRssMiB: rss.length ? Math.max(...rss) : undefined,
      executable: exe.length ? median(exe) : undefined,
      executableSamples: exe,
      podmanPlay: median(play),
      podmanPlaySamples: play,
      podmanDown: median(down),
      podmanDownSamples: down,
    })
  }

  await sleep(500)
  const swept = await h.sweep()
  const leftovers = h.ctrLeftovers()
  const podmanLeftovers = await pm.close()
  pm = undefined
  await h.close()
  const totalSecs = (performance.now() - started) / 1000
  checkLoad('at the end')
  const load = {start: loadStart, end: loadavg(), cpus: cpus().length}
  const largest = results.at(-1)
  const peakRss = largest?.commandMaxRssMiB === undefined ? undefined : {n: largest.n, mib: largest.commandMaxRssMiB}

  if (flags.json) {
    process.stdout.write(JSON.stringify({runtime: version, podman: podmanVersion, endpoint: h.endpoint, reps: REPS, startReps: START_REPS, parallelism: P, build: h.build, otherSandboxes: h.others, results, start, peakRss, swept, leftovers, podmanLeftovers, totalSecs, load}, null, 2) + '\n')
    return
  }
  const la = (l) => l.map((x) => x.toFixed(2)).join(' ')
  const out = []
  out.push(`kube-node peer benchmark — ${version.runtimeName} ${version.runtimeVersion} and podman ${podmanVersion}, ${load.cpus} CPUs, ${REPS} reps, medians`)
  out.push(`load average (1, 5, 15 min) ${la(load.start)} at start, ${la(load.end)} at end`)
  if (load.start[0] > load.cpus || load.end[0] > load.cpus) out.push(`WARNING: load average above the ${load.cpus} cores during this run: the figures are skewed by other work`)
  out.push(`kube-node ${h.build.commit}${h.build.dirty ? ' + uncommitted src changes' : ''}, dist built ${h.build.built}; other kube-node pods on this runtime at start: ${h.others} sandboxes`)
  out.push(`floor = raw CRI RunPodSandbox+CreateContainer+StartContainer per pod, best of concurrency ${FLOOR_CONC.join(', ')}; in-process = runPods(wait running) at P=${P}${P === h.cliParallelism ? " (the CLI's default)" : ''};`)
  out.push('whole command = `node bin/run.js run -f DIR`, process start to exit; podman = `podman kube play FILE` (the N pods in one file), start to exit')
  out.push('(it returns once the containers are started); `podman kube down` afterwards, untimed. Ratios to the floor. No path pulls an image.')
  out.push('')
  out.push('single executable = the same `run` through dist/kube-node-<platform>-<arch> (npm run build:sea), when built.')
  out.push('')
  out.push('| work | raw CRI floor | kube-node in-process | `kube-node run` whole command | single executable `run` | `podman kube play` | run ÷ podman | executable ÷ podman | `podman kube down` |')
  out.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
  for (const x of results) {
    out.push(`| ${x.n} pod${x.n === 1 ? '' : 's'} | ${s(x.best)} (c=${x.bestConc}) | ${s(x.kubeNode)} (${r(x.kubeNode / x.best)}) | ${s(x.command)} (${r(x.command / x.best)}) | ${s(x.executable)}${x.executable === undefined ? '' : ` (${r(x.executable / x.best)})`} | ${s(x.podmanPlay)} (${r(x.podmanPlay / x.best)}) | ${r(x.command / x.podmanPlay)} | ${x.executable === undefined ? '-' : r(x.executable / x.podmanPlay)} | ${s(x.podmanDown)} |`)
  }
  if (start) {
    out.push('')
    out.push(`| start cost (whole process, median of ${START_REPS}) | time | × its Node's \`-e 0\` |`)
    out.push('| --- | --- | --- |')
    for (const row of start) out.push(`| \`${row.name}\`${row.podsPresent ? ` (${row.podsPresent} pods present)` : ''} | ${row.median.toFixed(3)} s | ${r(row.ratio)} |`)
  }
  out.push('')
  if (peakRss) out.push(`peak RSS of \`kube-node run\` for ${peakRss.n} pod${peakRss.n === 1 ? '' : 's'}: ${peakRss.mib.toFixed(0)} MiB (/usr/bin/time %M, highest of ${REPS})`)
  out.push(`leftovers: ${leftovers ?? 'ctr unavailable'} containers of this run in containerd (swept ${swept} sandboxes at the end), ${podmanLeftovers} podman pods/containers; total ${totalSecs.toFixed(0)} s`)
  process.stdout.write(out.join('\n') + '\n')
}

try {
  await main()
} catch (err) {
  log(`failed: ${err?.stack ?? err}`)
  await h.sweep().catch((e) => log(`cleanup failed: ${e?.message ?? e}`))
  const left = h.ctrLeftovers()
  if (left) log(`WARNING: ${left} containers of run ${h.runId} remain; remove their sandboxes (pod names ${h.prefix}*) with crictl/ctr or re-run after the runtime is back`)
  await pm?.close().catch((e) => log(`podman cleanup failed: ${e?.message ?? e}`))
  await h.close()
  process.exitCode = 1
}
