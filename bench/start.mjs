#!/usr/bin/env node
// Start cost of what is shipped: the single executable (dist/kube-node-<platform>-<arch>, built by
// `npm run build:sea` on the Node that packaging/node pins) against that same Node's own `node -e 0`,
// and bin/run.js against the Node running this script. Each command is spawned whole, the columns
// interleaved, one untimed round first; medians of --reps rounds, and ratios to each Node's
// `-e 0`. `version` makes one CRI Version call; `get pods` reads an empty node. Two rows show the
// least any gRPC client on the embedded Node can cost: loading node:http2 alone, and one bare CRI
// Version call over it with no library (bench/lib/bare-version.cjs).
//
//   npm run build && npm run build:sea && node bench/start.mjs [--reps 15]
//
// Needs a CRI runtime (CONTAINER_RUNTIME_ENDPOINT, else the e2e one). Changes nothing in it.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import {cpus, loadavg, tmpdir} from 'node:os'
import {join} from 'node:path'
import {parseArgs} from 'node:util'
import {performance} from 'node:perf_hooks'
import {E2E_ENDPOINT, REPO, checkLoad, median} from './lib/harness.mjs'

const {values: flags} = parseArgs({options: {reps: {type: 'string', default: '15'}, endpoint: {type: 'string', default: process.env.CONTAINER_RUNTIME_ENDPOINT || E2E_ENDPOINT}}})
const REPS = Math.max(1, Number.parseInt(flags.reps, 10) || 1)
const exe = join(REPO, `dist/kube-node-${process.platform}-${process.arch}`)
const embedded = join(REPO, `packaging/node/node_modules/node-${process.platform}-${process.arch}/bin/node`)
if (!existsSync(exe) || !existsSync(embedded)) throw new Error('no single executable: run `npm run build:sea` first')

const work = mkdtempSync(join(tmpdir(), 'kube-node-start-'))
const node = ['--runtime-endpoint', flags.endpoint, '--root-dir', join(work, 'root'), '--pod-logs-dir', join(work, 'logs'), '--node-name', 'benchs']
const run = join(REPO, 'bin/run.js')
const rows = [
  ['embedded Node -e 0', embedded, ['-e', '0'], 'embedded'],
  ['embedded Node, node:http2 loaded', embedded, ['-e', "require('node:http2')"], 'embedded'],
  ['embedded Node, bare CRI Version call', embedded, [join(REPO, 'bench/lib/bare-version.cjs'), flags.endpoint], 'embedded'],
  ['executable version', exe, ['version', ...node], 'embedded'],
  ['executable get pods', exe, ['get', 'pods', ...node], 'embedded'],
  [`node ${process.version} -e 0`, process.execPath, ['-e', '0'], 'this'],
  ['bin/run.js version', process.execPath, [run, 'version', ...node], 'this'],
  ['bin/run.js get pods', process.execPath, [run, 'get', 'pods', ...node], 'this'],
]
const times = rows.map(() => [])
const loadStart = checkLoad('before starting')
try {
  for (let r = 0; r <= REPS; r++) {
    rows.forEach(([what, file, args], i) => {
      const t0 = performance.now()
      const res = spawnSync(file, args, {stdio: ['ignore', 'ignore', 'pipe'], env: {...process.env, NO_COLOR: '1'}})
      if (res.status !== 0) throw new Error(`${what} exited ${res.status}: ${res.stderr}`)
      if (r > 0) times[i].push((performance.now() - t0) / 1000)
    })
  }
} finally {
  rmSync(work, {recursive: true, force: true})
}
const loadEnd = checkLoad('at the end')
const med = times.map(median)
const base = {embedded: med[0], this: med[rows.findIndex(([, file]) => file === process.execPath)]}
const embeddedVersion = spawnSync(embedded, ['-p', 'process.version'], {encoding: 'utf8'}).stdout.trim()
const out = [
  `start cost, ${REPS} rounds, medians; embedded Node ${embeddedVersion}, this Node ${process.version}; ${cpus().length} cores, load average ${loadStart.toFixed(2)} at start, ${loadEnd.toFixed(2)} at end${Math.max(loadStart, loadEnd) > cpus().length ? ' (WARNING: above the core count)' : ''}`,
  '',
  '| command | time | × its Node\'s `-e 0` |',
  '| --- | --- | --- |',
  ...rows.map(([what, , , b], i) => `| ${what} | ${med[i].toFixed(3)} s | ${(med[i] / base[b]).toFixed(2)}× |`),
]
process.stdout.write(out.join('\n') + '\n')
