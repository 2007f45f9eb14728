// Faults against a real containerd: the runtime killed and restarted during `run` and `watch`,
// kube-node itself killed -9 at random points of a converge, CRI calls that hang until their
// deadline (a stalling proxy), and a manifest URL that flaps, serves garbage or is slow. Each
// time kube-node must keep going, converge once it can, and leave what the kubelet would: one
// ready sandbox per pod, and of older sandboxes only those holding the history GC keeps (leaks()).
// Runs as node `faults`: kube-node touches only that node's pods.
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createServer as createHttpServer, get as httpGet, type Server} from 'node:http'
import {createServer as createNetServer} from 'node:net'
import {join} from 'node:path'
import {BUSYBOX, ROOT, SOCKET, ctr, eventually, makeDirs} from './support.js'
import {callName, startStallProxy, stallFirst, type StallProxy} from './stall-proxy.js'
import type {Runtime} from '../../src/cri/port.js'

const NODE = 'faults'
const ENDPOINT = `unix://${SOCKET}`
const PID_FILE = '/run/kube-node-e2e/containerd.pid'
const POD_NAME = 'io.kubernetes.pod.name'
const NODE_LABEL = 'kube-node.io/node'
const quick = ['--file-check-frequency', '1s', '--http-check-frequency', '1s', '--port', '0']

const dirs = makeDirs()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Run {
  child: ChildProcess
  result: Promise<{code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string}>
  stderr: () => string
}

/** Starts the built CLI as node `faults` (global flags before a `--`). */
function start(args: string[], opts: {endpoint?: string; extra?: string[]} = {}): Run {
  const global = ['--runtime-endpoint', opts.endpoint ?? ENDPOINT, '--root-dir', dirs.rootDir, '--pod-logs-dir', dirs.logsDir, '--node-name', NODE, ...(opts.extra ?? [])]
  const child = spawn(process.execPath, [join(ROOT, 'bin/run.js'), ...args, ...global], {env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  const result = new Promise<{code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string}>((resolve) =>
    child.on('close', (code, signal) => resolve({code, signal, stdout, stderr})),
  )
  return {child, result, stderr: () => stderr}
}

const kn = (args: string[], opts: {endpoint?: string; extra?: string[]} = {}) => start(args, opts).result

function podYaml(name: string, command = "trap 'exit 0' TERM; while true; do sleep 1 & wait $!; done"): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  terminationGracePeriodSeconds: 2
  containers:
  - name: main
    image: ${BUSYBOX}
    imagePullPolicy: IfNotPresent
    command: ["sh", "-c", ${JSON.stringify(command)}]
`
}

function writePods(dir: string, names: string[]): void {
  rmSync(dir, {recursive: true, force: true})
  mkdirSync(dir, {recursive: true})
  for (const n of names) writeFileSync(join(dir, `${n}.yaml`), podYaml(n))
}

// --- looking at the runtime -----------------------------------------------------------------

function ctrIds(filter: string): string[] {
  return ctr(['containers', 'ls', '-q', filter]).split('\n').filter(Boolean)
}

/** Sandboxes of one pod, by the kubelet's pod-name label (ctr, independent of kube-node). */
function sandboxesOf(pod: string): string[] {
  return ctrIds(`labels."${POD_NAME}"==${pod}-${NODE},labels."io.cri-containerd.kind"==sandbox`)
}

/** IDs of the containers whose task runs (a sandbox is ready while its pause process runs). */
function runningTasks(): Set<string> {
  const lines = ctr(['tasks', 'ls']).split('\n').slice(1)
  return new Set(lines.map((l) => l.trim().split(/\s+/)).filter((f) => f[2] === 'RUNNING').map((f) => f[0]!))
}

/** The ready sandboxes of one pod: exactly one for a pod that runs, as the kubelet keeps it. */
function readySandboxesOf(pod: string): string[] {
  const running = runningTasks()
  return sandboxesOf(pod).filter((id) => running.has(id))
}

function ourSandboxCount(): number {
  return ctrIds(`labels."${NODE_LABEL}"==${NODE},labels."io.cri-containerd.kind"==sandbox`).length
}

let cri: Runtime | undefined
async function criRuntime(): Promise<Runtime> {
  if (!cri) {
    const {createGrpcRuntime} = (await import(join(ROOT, 'dist/cri/grpc/client.js'))) as typeof import('../../src/cri/grpc/client.js')
    cri = createGrpcRuntime({runtimeEndpoint: ENDPOINT, callTimeoutMs: 10_000})
  }
  return cri
}

/**
 * Everything of node `faults` in the runtime is accounted for, by the kubelet's contract: each
 * wanted pod has exactly one ready sandbox, with its one running container in it; any other
 * sandbox of a wanted pod is not ready and kept only because it holds a dead container that GC
 * keeps (the newest exited one of its name: the pod's history); no older dead container is left,
 * no container is left `created`, none is outside its pod's sandboxes, and nothing of a pod not
 * wanted remains. Returns the problems (empty when clean).
 */
async function leaks(pods: string[]): Promise<string[]> {
  const rt = (await criRuntime()).runtime
  const sandboxes = await rt.listPodSandbox({labelSelector: {[NODE_LABEL]: NODE}})
  const containers = await rt.listContainers({labelSelector: {[NODE_LABEL]: NODE}})
  const problems: string[] = []
  const short = (id: string): string => id.slice(0, 12)
  const wanted = new Set(pods.map((p) => `${p}-${NODE}`))
  const sandboxIds = new Set(sandboxes.map((s) => s.id))
  for (const c of containers) {
    const what = `container ${short(c.id)} (${c.metadata.name}) of ${c.labels[POD_NAME]}`
    if (!sandboxIds.has(c.podSandboxId)) problems.push(`${what} is in no sandbox`)
    if (c.state === 'CONTAINER_CREATED') problems.push(`${what} was left created`)
  }
  for (const pod of new Set([...wanted, ...sandboxes.map((s) => s.labels[POD_NAME] ?? '?')])) {
    const own = sandboxes.filter((s) => (s.labels[POD_NAME] ?? '?') === pod)
    const list = own.map((s) => `${short(s.id)}:${s.state}`).join(',')
    if (!wanted.has(pod)) {
      problems.push(`unexpected sandbox(es) of ${pod}: ${list}`)
      continue
    }
    const ready = own.filter((s) => s.state === 'SANDBOX_READY')
    if (ready.length !== 1) problems.push(`${pod} has ${ready.length} ready sandboxes: ${list || 'none'}`)
    const inPod = containers.filter((c) => own.some((s) => s.id === c.podSandboxId))
    const running = inPod.filter((c) => c.state === 'CONTAINER_RUNNING')
    if (running.length !== 1) problems.push(`${pod} has ${running.length} running containers`)
    else if (ready.length === 1 && running[0]!.podSandboxId !== ready[0]!.id) problems.push(`${pod} runs its container outside its ready sandbox`)
    // What GC keeps of the pod's history: the newest dead container of each name.
    const kept = new Map<string, string>()
    for (const c of inPod.filter((x) => x.state === 'CONTAINER_EXITED').sort((a, b) => b.createdAt - a.createdAt)) {
      if (!kept.has(c.metadata.name)) kept.set(c.metadata.name, c.podSandboxId)
      else problems.push(`${pod} keeps an older dead container ${short(c.id)} of "${c.metadata.name}"`)
    }
    const history = new Set(kept.values())
    for (const s of own) {
      if (s.state !== 'SANDBOX_READY' && !history.has(s.id)) problems.push(`${pod} keeps dead sandbox ${short(s.id)}, which holds no container GC keeps`)
    }
  }
  return problems
}

// --- containerd -----------------------------------------------------------------------------

/** Present in /proc and not a zombie (PID 1 here may not reap). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z'
  } catch {
    return false
  }
}

async function killContainerd(): Promise<void> {
  const pid = Number(readFileSync(PID_FILE, 'utf8').trim())
  expect(alive(pid), `containerd (pid ${pid}) is running`).toBe(true)
  process.kill(pid, 'SIGKILL')
  await eventually(() => (alive(pid) ? undefined : true), 10_000, 'containerd gone')
}

async function startContainerd(): Promise<void> {
  const r = await new Promise<{code: number | null; err: string}>((resolve) => {
    const c = spawn('bash', [join(ROOT, 'scripts/runtime.sh'), 'up'], {stdio: ['ignore', 'ignore', 'pipe']})
    let err = ''
    c.stderr.on('data', (d: Buffer) => (err += d.toString()))
    c.on('close', (code) => resolve({code, err}))
  })
  expect(r.code, r.err).toBe(0)
}

async function freePort(): Promise<number> {
  const srv = createNetServer()
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()))
  const port = (srv.address() as {port: number}).port
  await new Promise<void>((r) => srv.close(() => r()))
  return port
}

function healthz(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = httpGet({host: '127.0.0.1', port, path: '/healthz', timeout: 2000}, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', () => resolve(0))
    req.on('timeout', () => req.destroy())
  })
}

interface PodJson {
  metadata: {name: string}
  status: {phase: string; containerStatuses?: {containerID?: string; restartCount: number; state: Record<string, unknown>}[]}
}

async function podsJson(): Promise<PodJson[]> {
  const r = await kn(['get', 'pods', '-o', 'json'])
  if (r.code !== 0) throw new Error(r.stderr)
  return (JSON.parse(r.stdout) as {items: PodJson[]}).items.filter((p) => p.metadata.name.endsWith(`-${NODE}`))
}

async function runningContainer(pod: string): Promise<string | undefined> {
  const p = (await podsJson()).find((x) => x.metadata.name === `${pod}-${NODE}`)
  const cs = p?.status.containerStatuses?.[0]
  return cs?.state['running'] ? cs.containerID : undefined
}

const names = (prefix: string, n: number) => Array.from({length: n}, (_, i) => `${prefix}${i}`)

/**
 * `down --all` for this node. A `run` killed -9 inside StartContainer can leave a task that
 * containerd created but never started: CRI's StopContainer does nothing to a created task and
 * RemovePodSandbox then fails on it ("cannot delete running task"), so no CRI client can remove
 * it. Such tasks of this node are deleted with ctr, and the down is tried again, so that one
 * test's kill leaves the next test a clean node.
 */
async function downAll(): Promise<void> {
  const first = await kn(['down', '--all'])
  if (first.code === 0) return
  const ours = new Set(ctr(['containers', 'ls', '-q', `labels."${NODE_LABEL}"==${NODE}`]).split('\n').filter(Boolean))
  const created = ctr(['tasks', 'ls'])
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[2] === 'CREATED' && ours.has(f[0] ?? ''))
  for (const [id] of created) ctr(['tasks', 'delete', '-f', id!])
  const second = await kn(['down', '--all'])
  expect(second.code, `down --all after deleting ${created.length} created task(s): ${second.stderr}`).toBe(0)
}

describe('faults (real containerd)', () => {
  let daemon: Run | undefined

  beforeAll(async () => {
    await downAll()
  })
  afterEach(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGKILL')
      await daemon.result
    }
    daemon = undefined
    // Whatever a test did to containerd, the next one starts with it up.
    await startContainerd()
    await downAll()
  })
  afterAll(() => {
    cri?.close()
    dirs.cleanup()
  })

  it('run survives containerd killed and restarted mid-converge: exit 0, one ready sandbox per pod, no leak', async () => {
    const dir = join(dirs.work, 'restart-run')
    const pods = names('r', 10)
    writePods(dir, pods)
    const run = start(['run', '-f', dir, '--timeout', '2m'])
    await eventually(() => (ourSandboxCount() > 0 ? true : undefined), 60_000, 'a first sandbox')
    await killContainerd()
    await sleep(3000)
    await startContainerd()
    const r = await run.result
    expect(r.code, r.stderr).toBe(0)
    // The outage was seen and retried, not ignored.
    expect(r.stderr).toMatch(/Unavailable|retrying/)
    for (const p of pods) expect(readySandboxesOf(p), p).toHaveLength(1)
    expect(await leaks(pods)).toEqual([])
  })

  it('watch survives containerd killed and restarted: keeps its pods, converges a new one, health recovers', async () => {
    const dir = join(dirs.work, 'restart-watch')
    writePods(dir, ['w0', 'w1', 'w2'])
    const port = await freePort()
    daemon = start(['watch', dir, ...quick, '--healthz-port', String(port)])
    const before = await eventually(async () => {
      const ids = await Promise.all(['w0', 'w1', 'w2'].map(runningContainer))
      return ids.every(Boolean) ? ids : undefined
    }, 60_000, 'w0..w2 running')
    expect(await healthz(port)).toBe(200)

    await killContainerd()
    await sleep(3000)
    expect(daemon.child.exitCode, 'watch is still running').toBeNull()
    await startContainerd()
    writeFileSync(join(dir, 'w3.yaml'), podYaml('w3'))
    await eventually(() => runningContainer('w3'), 60_000, 'w3 running after the restart')
    await eventually(async () => ((await healthz(port)) === 200 ? true : undefined), 30_000, 'healthz 200')
    // The old pods were adopted, not recreated: same containers, one ready sandbox each.
    expect(await Promise.all(['w0', 'w1', 'w2'].map(runningContainer))).toEqual(before)
    for (const p of ['w0', 'w1', 'w2', 'w3']) expect(readySandboxesOf(p), p).toHaveLength(1)
    expect(daemon.child.exitCode).toBeNull()
    expect(await leaks(['w0', 'w1', 'w2', 'w3'])).toEqual([])
  })

  it('run killed -9 at random points of a 20-pod converge, ten times: the next run converges without leaks', async () => {
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
    const r = await kn(['run', '-f', dir, '--timeout', '2m'])
    const story = `kill delays ${delays.join(',')} ms, sandboxes then ${atKill.join(',')}`
    expect(r.code, `${story}: ${r.stderr}`).toBe(0)
    expect(r.stdout.split('\n').filter((l) => / Running /.test(l))).toHaveLength(20)
    for (const p of pods) expect(readySandboxesOf(p), p).toHaveLength(1)
    expect(await leaks(pods), story).toEqual([])
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
      daemon = start(['watch', '--manifest-url', url, ...quick, '--healthz-port', '0'])
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
