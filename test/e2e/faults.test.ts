// Faults against a real containerd: kube-node itself killed -9 at random points of a converge,
// CRI calls that hang until their deadline (a stalling proxy), and a manifest URL that flaps,
// serves garbage or is slow. Each time kube-node must keep going, converge once it can, and leave
// what the kubelet would: one ready sandbox per pod, and of older sandboxes only those holding the
// history GC keeps (leaks()). Runs as node `faults`: kube-node touches only that node's pods.
// containerd itself killed and restarted: runtime-restart.test.ts, which runs alone.
import {afterEach, describe, expect, it} from 'vitest'
import {readdirSync, utimesSync, writeFileSync} from 'node:fs'
import {createServer as createHttpServer, type Server} from 'node:http'
import {join} from 'node:path'
import {callName, startStallProxy, stallFirst, type StallProxy} from './stall-proxy.js'
import {SOCKET, eventually} from './support.js'
import {criRuntime, dirs, faultHooks, kn, leaks, names, NODE, ourSandboxCount, POD_NAME, podYaml, quick, readySandboxesOf, runningContainer, sandboxesOf, sleep, start, writePods} from './faults-support.js'

describe('faults (real containerd)', () => {
  const hooks = faultHooks()

  it('run killed -9 at random points of a 20-pod converge, ten times: the next run converges without leaks, and removes half-written records', async () => {
    const dir = join(dirs.work, 'kill9')
    const pods = names('k', 20)
    writePods(dir, pods)
    const delays: number[] = []
    // How far each killed converge had got (sandboxes of node faults), for failure messages.
    const atKill: number[] = []
    for (let i = 0; i < 10; i++) {
      const run = start(['run', '-f', dir, '--timeout', '2m'])
      const delay = Math.floor(Math.random() * 3000)
      delays.push(delay)
      await sleep(delay)
      run.child.kill('SIGKILL')
      atKill.push(ourSandboxCount())
      const r = await run.result
      // It may have finished first on a late kill; it must never have failed.
      expect(r.signal === 'SIGKILL' || r.code === 0, `iteration ${i}: ${r.stderr}`).toBe(true)
    }
    // What a kill in the middle of a record write leaves (a temporary file), aged past any write,
    // as weeks of restarts would leave them; and the kills' own leftovers, if any, aged with them.
    // Only the pods the kills let a run reach have a directory: at least one (ten random kills
    // within 3 s all landing before the first pod's directory is a chance under 1e-4).
    const podsDir = join(dirs.rootDir, 'pods')
    const hourAgo = new Date(Date.now() - 3_600_000)
    const reached = readdirSync(podsDir)
    expect(reached.length).toBeGreaterThan(0)
    for (const uid of reached) {
      writeFileSync(join(podsDir, uid, '.status.json.0badc0de.tmp'), '{"apiVersion":')
      for (const f of readdirSync(join(podsDir, uid))) if (f.endsWith('.tmp')) utimesSync(join(podsDir, uid, f), hourAgo, hourAgo)
    }
    const temporaries = (): string[] => readdirSync(podsDir).flatMap((uid) => readdirSync(join(podsDir, uid)).filter((f) => f.endsWith('.tmp')).map((f) => `${uid}/${f}`))
    expect(temporaries().length).toBeGreaterThanOrEqual(reached.length)
    const r = await kn(['run', '-f', dir, '--timeout', '2m'])
    const story = `kill delays ${delays.join(',')} ms, sandboxes then ${atKill.join(',')}`
    expect(r.code, `${story}: ${r.stderr}`).toBe(0)
    expect(r.stdout.split('\n').filter((l) => / Running /.test(l))).toHaveLength(20)
    for (const p of pods) expect(readySandboxesOf(p), p).toHaveLength(1)
    expect(await leaks(pods), story).toEqual([])
    expect(temporaries()).toEqual([])
    console.log(story)
  }, 240_000)

  it('the leak check holds run to the contract: a second ready sandbox and an empty dead one are leaks, and run collects them', async () => {
    const dir = join(dirs.work, 'contract')
    writePods(dir, ['c0'])
    const first = await kn(['run', '-f', dir, '--timeout', '60s'])
    expect(first.code, first.stderr).toBe(0)
    expect(await leaks(['c0'])).toEqual([])
    // A stray sandbox of the pod, as a RunPodSandbox whose answer was lost leaves one.
    const rt = (await criRuntime()).runtime
    const [own] = await rt.listPodSandbox({labelSelector: {[POD_NAME]: `c0-${NODE}`}})
    const stray = await rt.runPodSandbox({metadata: {...own!.metadata, attempt: own!.metadata.attempt + 1}, hostname: 'c0', logDirectory: '', portMappings: [], labels: own!.labels, annotations: own!.annotations})
    expect(await leaks(['c0'])).toEqual([expect.stringMatching(/^c0-faults has 2 ready sandboxes/)])
    await rt.stopPodSandbox(stray)
    expect(await leaks(['c0'])).toEqual([expect.stringMatching(/^c0-faults keeps dead sandbox \w+, which holds no container GC keeps$/)])
    // The newest sandbox is dead: run recreates the pod, keeps the one holding the killed
    // container (history) and collects the empty one.
    const again = await kn(['run', '-f', dir, '--timeout', '60s'])
    expect(again.code, again.stderr).toBe(0)
    expect(sandboxesOf('c0')).not.toContain(stray)
    expect(sandboxesOf('c0')).toContain(own!.id)
    expect(readySandboxesOf('c0')).toHaveLength(1)
    expect(await leaks(['c0'])).toEqual([])
  })

  describe('a CRI call that hangs', () => {
    let proxy: StallProxy | undefined
    afterEach(async () => {
      await proxy?.close()
      proxy = undefined
    })

    it('hits its deadline and is retried: run succeeds', async () => {
      proxy = await startStallProxy({socketPath: join(dirs.work, 'stall.sock'), upstreamSocket: SOCKET})
      proxy.setPolicy(stallFirst({RunPodSandbox: 2, CreateContainer: 1, StartContainer: 1, PodSandboxStatus: 1}))
      const dir = join(dirs.work, 'stall')
      const pods = names('s', 3)
      writePods(dir, pods)
      const r = await kn(['run', '-f', dir, '--timeout', '90s'], {endpoint: proxy.endpoint, extra: ['--runtime-request-timeout', '2s']})
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toMatch(/DeadlineExceeded/)
      expect(proxy.calls.filter((c) => c.stalled).map((c) => callName(c.method)).sort()).toEqual(
        ['CreateContainer', 'PodSandboxStatus', 'RunPodSandbox', 'RunPodSandbox', 'StartContainer'].sort(),
      )
      for (const p of pods) expect(readySandboxesOf(p), p).toHaveLength(1)
      expect(await leaks(pods)).toEqual([])
    })

    it('a runtime that stalls every call for 5s mid-converge: run still succeeds', async () => {
      proxy = await startStallProxy({socketPath: join(dirs.work, 'stall.sock'), upstreamSocket: SOCKET})
      const dir = join(dirs.work, 'stall5')
      const pods = names('t', 6)
      writePods(dir, pods)
      const run = start(['run', '-f', dir, '--timeout', '90s'], {endpoint: proxy.endpoint, extra: ['--runtime-request-timeout', '2s']})
      await eventually(() => (ourSandboxCount() > 0 ? true : undefined), 60_000, 'a first sandbox')
      proxy.stallAll()
      await sleep(5000)
      proxy.passAll()
      const r = await run.result
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toMatch(/DeadlineExceeded/)
      expect(proxy.calls.some((c) => c.stalled)).toBe(true)
      for (const p of pods) expect(readySandboxesOf(p), p).toHaveLength(1)
      expect(await leaks(pods)).toEqual([])
    })

    // run's first listing (admission, before the converge loop) is retried until --timeout too.
    it('retries a hung first ListPodSandbox', async () => {
      proxy = await startStallProxy({socketPath: join(dirs.work, 'stall.sock'), upstreamSocket: SOCKET})
      proxy.setPolicy(stallFirst({ListPodSandbox: 1}))
      const dir = join(dirs.work, 'stall-list')
      writePods(dir, ['u0'])
      const r = await kn(['run', '-f', dir, '--timeout', '60s'], {endpoint: proxy.endpoint, extra: ['--runtime-request-timeout', '2s']})
      expect(r.code, r.stderr).toBe(0)
    })
  })

  it('a manifest URL that flaps, serves garbage, an empty body or answers too slowly: the pod keeps running', async () => {
    type Mode = 'ok' | 'flap' | 'garbage' | 'empty' | 'slow'
    let mode: Mode = 'ok'
    let requests = 0
    const body = podYaml('remote')
    const server: Server = createHttpServer((_req, res) => {
      requests++
      const m = mode
      if (m === 'ok' || (m === 'flap' && requests % 2 === 0)) res.end(body)
      else if (m === 'flap') {
        res.statusCode = 500
        res.end('internal error')
      } else if (m === 'garbage') res.end(`apiVersion: v1\nkind: Pod\nmetadata: {name: remote\nspec: [[[: - &x *y\n\u0000\u0007${'}'.repeat(50)}`)
      else if (m === 'empty') res.end('')
      else setTimeout(() => res.end(body), 15_000).unref()
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    const url = `http://127.0.0.1:${(server.address() as {port: number}).port}/pods.yaml`
    try {
      const daemon = hooks.daemon(['watch', '--manifest-url', url, ...quick, '--healthz-port', '0'])
      const first = await eventually(() => runningContainer('remote'), 60_000, 'remote running')
      const phases: [Mode, number][] = [['flap', 4000], ['garbage', 2500], ['empty', 2500], ['slow', 13_000], ['ok', 2000]]
      for (const [m, ms] of phases) {
        mode = m
        await sleep(ms)
        expect(await runningContainer('remote'), `after ${m}`).toBe(first)
        expect(daemon.child.exitCode, `watch alive after ${m}`).toBeNull()
      }
      const log = daemon.stderr()
      expect(log).toMatch(/HTTP 500/)
      expect(log).toMatch(/invalid YAML/)
      expect(log).toMatch(/no response within 10s/)
      expect(readySandboxesOf('remote')).toHaveLength(1)
      expect(await leaks(['remote'])).toEqual([])
    } finally {
      server.closeAllConnections()
      server.close()
    }
  }, 90_000)
})
