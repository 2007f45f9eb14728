// Limits per source, through the shipped bin/run.js: thirty files each just under the 2 MiB
// double-quoted cap, and twenty files of 1000 tiny pods. `validate` and `run` refuse them whole
// (exit 2, naming each file, nothing made under the root dir); `watch` decodes only what fits a
// directory's limits, hands the loop at most maxPods pods (no pod directory for any other),
// keeps its RSS bounded (VmHWM from /proc) and answers /healthz all along.
import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {eventually, makeDirs, podYaml} from '../e2e/support.js'
import {argsAs, freePort} from './support/daemon.js'
import {healthz} from './support/raw-http.js'

const NODE = 'adv-source-limits'
const dirs = makeDirs()
const MAX_PODS = 3
const RSS_BOUND_MIB = 400

/** 30 ConfigMaps of one double-quoted value each, 4 KiB under the per-file cap. */
const quotedDir = join(dirs.work, 'quoted')
mkdirSync(quotedDir)
const big = 'x'.repeat(2 * 1024 * 1024 - 4096)
for (let i = 0; i < 30; i++) writeFileSync(join(quotedDir, `cm${String(i).padStart(2, '0')}.yaml`), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm${i}\ndata:\n  k: "${big}"\n`)
writeFileSync(join(quotedDir, 'pod.yaml'), podYaml('quoted'))

/** 20 files of 1000 pods each. */
const podsDir = join(dirs.work, 'pods')
mkdirSync(podsDir)
for (let f = 0; f < 20; f++) {
  const name = (i: number): string => `f${String(f).padStart(2, '0')}-p${i}`
  writeFileSync(join(podsDir, `f${String(f).padStart(2, '0')}.yaml`), Array.from({length: 1000}, (_, i) => podYaml(name(i))).join('---\n'))
}

/** Peak RSS (VmHWM) of a child, read from /proc every 50 ms until it exits. */
function peakRss(child: ChildProcess): {mib: () => number} {
  let kib = 0
  const timer = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
      if (m) kib = Math.max(kib, Number(m[1]))
    } catch {
      // exited
    }
  }, 50)
  child.on('exit', () => clearInterval(timer))
  return {mib: () => kib / 1024}
}

async function runMeasured(args: string[]): Promise<{code: number; stderr: string; rssMiB: number; ms: number}> {
  const started = performance.now()
  const child = spawn(process.execPath, argsAs(NODE, dirs, args), {env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'ignore', 'pipe']})
  const rss = peakRss(child)
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)))
  return {code, stderr, rssMiB: rss.mib(), ms: performance.now() - started}
}

const podDirs = (): string[] => (existsSync(join(dirs.rootDir, 'pods')) ? readdirSync(join(dirs.rootDir, 'pods')) : [])
const files = (from: number, to: number, prefix: string): string[] => Array.from({length: to - from}, (_, i) => `${prefix}${String(from + i).padStart(2, '0')}.yaml`)

afterAll(() => {
  spawnSync(process.execPath, argsAs(NODE, dirs, ['down', '--all']))
  dirs.cleanup()
})

describe('validate and run: a directory is held to its limits as a whole', () => {
  it('30 files of 2 MiB double-quoted text: the ones past 4 MiB are named, in bounded memory', async () => {
    const r = await runMeasured(['validate', '-f', quotedDir])
    console.log(`validate, 30 × 2 MiB double-quoted: ${Math.round(r.ms)} ms, peak RSS ${Math.round(r.rssMiB)} MiB`)
    expect(r.code).toBe(2)
    const refused = [...r.stderr.matchAll(/(cm\d\d\.yaml), document 0: not decoded: .*more than 4 MiB of double-quoted strings in all/g)].map((m) => m[1])
    expect(refused).toEqual(files(2, 30, 'cm'))
    expect(r.rssMiB).toBeLessThan(RSS_BOUND_MIB)
  })

  it('20 files of 1000 pods: the ones past 1000 objects are named; run refuses them all and makes nothing', async () => {
    const v = await runMeasured(['validate', '-f', podsDir])
    console.log(`validate, 20 × 1000 pods: ${Math.round(v.ms)} ms, peak RSS ${Math.round(v.rssMiB)} MiB`)
    expect(v.code).toBe(2)
    const refused = [...v.stderr.matchAll(/(f\d\d\.yaml), document 0: not decoded: with its 1000 objects, .*more than 1000 objects in all/g)].map((m) => m[1])
    expect(refused).toEqual(files(1, 20, 'f'))
    expect(v.rssMiB).toBeLessThan(RSS_BOUND_MIB)
    const run = await runMeasured(['run', '-f', podsDir, '--wait', 'none'])
    expect(run.code).toBe(2)
    expect(podDirs()).toEqual([])
  })

  it('more pods than maxPods: run refuses them whole, naming the location, before anything is made', async () => {
    const one = join(dirs.work, 'five.yaml')
    writeFileSync(one, Array.from({length: MAX_PODS + 2}, (_, i) => podYaml(`five-${i}`)).join('---\n'))
    const r = await runMeasured(['run', '-f', one, '--wait', 'none', '--max-pods', String(MAX_PODS)])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`five.yaml, document 0: passes maxPods (${MAX_PODS}), the most pods this node runs: the locations given define ${MAX_PODS + 2} pods in all`)
    expect(podDirs()).toEqual([])
  })
})

describe('watch: a directory past its limits (real containerd)', () => {
  async function watchMeasured(dir: string, check: (stderr: () => string) => Promise<void>): Promise<{rssMiB: number; worstHealthzMs: number}> {
    const port = await freePort()
    const child = spawn(process.execPath, argsAs(NODE, dirs, ['watch', dir, '--port', String(port), '--healthz-port', '0', '--max-pods', String(MAX_PODS)]), {
      env: {...process.env, NO_COLOR: '1'},
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    const rss = peakRss(child)
    let stderr = ''
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    let worst = 0
    let polling = true
    const started = performance.now()
    // /healthz from the moment the port is open: every answer within the bound, none missing.
    await eventually(() => healthz(port).then(() => true).catch(() => undefined), 30_000, 'watch to listen')
    const poller = (async () => {
      while (polling) {
        const h = await healthz(port).catch(() => ({status: 0, ms: 5000}))
        worst = Math.max(worst, h.ms)
        await new Promise((r) => setTimeout(r, 100))
      }
    })()
    try {
      await check(() => stderr)
    } finally {
      polling = false
      await poller
      child.kill('SIGTERM')
      await new Promise((r) => child.on('close', r))
    }
    console.log(`watch ${dir.slice(dirs.work.length)}: ready in ${Math.round(performance.now() - started)} ms, peak RSS ${Math.round(rss.mib())} MiB, worst /healthz ${Math.round(worst)} ms`)
    return {rssMiB: rss.mib(), worstHealthzMs: worst}
  }

  it(`20 files of 1000 pods: ${MAX_PODS} pods run, no directory for any other, RSS bounded, /healthz answering`, async () => {
    const r = await watchMeasured(podsDir, async (stderr) => {
      await eventually(() => (/pods not added/.test(stderr()) && /f19\.yaml/.test(stderr()) ? true : undefined), 60_000, 'the refusals to be logged')
      // Give the loop time to start what it was handed, then look at what it made.
      await eventually(() => (podDirs().length >= MAX_PODS ? true : undefined), 60_000, `${MAX_PODS} pod directories`)
      await new Promise((r) => setTimeout(r, 2000))
      expect(podDirs()).toHaveLength(MAX_PODS)
      // The log quotes the names (\"…\"): one line for the 997 pods of f00.yaml left out.
      expect(stderr()).toMatch(new RegExp(`f00\\.yaml, document 3: 997 pods .*default/f00-p3.* and 994 more not added: the manifest sources define more than maxPods \\(${MAX_PODS}\\) pods`))
      expect(stderr()).toMatch(/f01\.yaml, document 0: not decoded: with its 1000 objects/)
    })
    expect(r.rssMiB).toBeLessThan(RSS_BOUND_MIB)
    expect(r.worstHealthzMs).toBeLessThan(3000)
    spawnSync(process.execPath, argsAs(NODE, dirs, ['down', '--all']))
  })

  it('30 files of 2 MiB double-quoted text: two are decoded, the rest named, RSS bounded', async () => {
    const r = await watchMeasured(quotedDir, async (stderr) => {
      await eventually(() => (/cm29\.yaml, document 0: not decoded/.test(stderr()) ? true : undefined), 60_000, 'the refusals to be logged')
      for (const f of files(2, 30, 'cm')) expect(stderr()).toContain(`${f}, document 0: not decoded: with it, the manifests of its directory would hold more than 4 MiB`)
      expect(stderr()).not.toMatch(/cm0[01]\.yaml, document 0: not decoded/)
    })
    expect(r.rssMiB).toBeLessThan(RSS_BOUND_MIB)
    expect(r.worstHealthzMs).toBeLessThan(3000)
  })
})
