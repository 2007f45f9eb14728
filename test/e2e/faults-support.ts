// Helpers of the fault tests (faults.test.ts, runtime-restart.test.ts): the built CLI started as
// the file's own node, and looks at the runtime (sandboxes, tasks, leaks) independent of kube-node.
import {afterAll, afterEach, beforeAll, expect} from 'vitest'
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {get as httpGet} from 'node:http'
import {createServer as createNetServer} from 'node:net'
import {basename, join} from 'node:path'
import {BUSYBOX, ROOT, SOCKET, ctr, eventually, makeDirs} from './support.js'
import type {Runtime} from '../../src/cri/port.js'

/** The file's node: `faults` or `runtime-restart`; kube-node touches only that node's pods. */
export const NODE = basename(expect.getState().testPath ?? 'faults.test.ts').replace(/\.test\.ts$/, '')
export const ENDPOINT = `unix://${SOCKET}`
export const PID_FILE = '/run/kube-node-e2e/containerd.pid'
export const POD_NAME = 'io.kubernetes.pod.name'
export const NODE_LABEL = 'kube-node.io/node'
export const quick = ['--file-check-frequency', '1s', '--http-check-frequency', '1s', '--port', '0']

export const dirs = makeDirs()
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export interface Run {
  child: ChildProcess
  result: Promise<{code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string}>
  stderr: () => string
}

/** Starts the built CLI as node `faults` (global flags before a `--`). */
export function start(args: string[], opts: {endpoint?: string; extra?: string[]} = {}): Run {
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

export const kn = (args: string[], opts: {endpoint?: string; extra?: string[]} = {}) => start(args, opts).result

export function podYaml(name: string, command = "trap 'exit 0' TERM; while true; do sleep 1 & wait $!; done"): string {
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

export function writePods(dir: string, names: string[]): void {
  rmSync(dir, {recursive: true, force: true})
  mkdirSync(dir, {recursive: true})
  for (const n of names) writeFileSync(join(dir, `${n}.yaml`), podYaml(n))
}

// --- looking at the runtime -----------------------------------------------------------------

export function ctrIds(filter: string): string[] {
  return ctr(['containers', 'ls', '-q', filter]).split('\n').filter(Boolean)
}

/**
 * Shims of the test runtime that run for no container containerd knows, and hold no process: what
 * containerd 1.6 leaves when a container exits while it is down (containerd/containerd#6771).
 */
export function orphanShims(): string[] {
  const procs = readdirSync('/proc').filter((d) => /^\d+$/.test(d))
  const read = (pid: string, file: string): string | undefined => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8')
    } catch {
      return undefined
    }
  }
  const parents = new Set(procs.map((pid) => read(pid, 'stat')?.split(') ')[1]?.split(' ')[1]))
  const known = new Set(ctr(['containers', 'ls', '-q']).split('\n').filter(Boolean))
  return procs.flatMap((pid) => {
    const argv = read(pid, 'cmdline')?.split('\0') ?? []
    const arg = (name: string): string | undefined => argv[argv.indexOf(name) + 1]
    if (!argv[0]?.endsWith('containerd-shim-runc-v2') || arg('-address') !== SOCKET || arg('-namespace') !== 'k8s.io') return []
    const id = arg('-id') ?? ''
    return known.has(id) || parents.has(pid) ? [] : [`pid ${pid} for ${id.slice(0, 12)}`]
  })
}

/** Sandboxes of one pod, by the kubelet's pod-name label (ctr, independent of kube-node). */
export function sandboxesOf(pod: string): string[] {
  return ctrIds(`labels."${POD_NAME}"==${pod}-${NODE},labels."io.cri-containerd.kind"==sandbox`)
}

/** IDs of the containers whose task runs (a sandbox is ready while its pause process runs). */
export function runningTasks(): Set<string> {
  const lines = ctr(['tasks', 'ls']).split('\n').slice(1)
  return new Set(lines.map((l) => l.trim().split(/\s+/)).filter((f) => f[2] === 'RUNNING').map((f) => f[0]!))
}

/** The ready sandboxes of one pod: exactly one for a pod that runs, as the kubelet keeps it. */
export function readySandboxesOf(pod: string): string[] {
  const running = runningTasks()
  return sandboxesOf(pod).filter((id) => running.has(id))
}

export function ourSandboxCount(): number {
  return ctrIds(`labels."${NODE_LABEL}"==${NODE},labels."io.cri-containerd.kind"==sandbox`).length
}

let cri: Runtime | undefined
export function closeCri(): void {
  cri?.close()
}
export async function criRuntime(): Promise<Runtime> {
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
export async function leaks(pods: string[]): Promise<string[]> {
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
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z'
  } catch {
    return false
  }
}

export async function killContainerd(): Promise<void> {
  const pid = Number(readFileSync(PID_FILE, 'utf8').trim())
  expect(alive(pid), `containerd (pid ${pid}) is running`).toBe(true)
  process.kill(pid, 'SIGKILL')
  await eventually(() => (alive(pid) ? undefined : true), 10_000, 'containerd gone')
}

export async function startContainerd(): Promise<void> {
  const r = await new Promise<{code: number | null; err: string}>((resolve) => {
    const c = spawn('bash', [join(ROOT, 'scripts/runtime.sh'), 'up'], {stdio: ['ignore', 'ignore', 'pipe']})
    let err = ''
    c.stderr.on('data', (d: Buffer) => (err += d.toString()))
    c.on('close', (code) => resolve({code, err}))
  })
  expect(r.code, r.err).toBe(0)
}

export async function freePort(): Promise<number> {
  const srv = createNetServer()
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()))
  const port = (srv.address() as {port: number}).port
  await new Promise<void>((r) => srv.close(() => r()))
  return port
}

export function healthz(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = httpGet({host: '127.0.0.1', port, path: '/healthz', timeout: 2000}, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', () => resolve(0))
    req.on('timeout', () => req.destroy())
  })
}

export interface PodJson {
  metadata: {name: string}
  status: {phase: string; containerStatuses?: {containerID?: string; restartCount: number; state: Record<string, unknown>}[]}
}

export async function podsJson(): Promise<PodJson[]> {
  const r = await kn(['get', 'pods', '-o', 'json'])
  if (r.code !== 0) throw new Error(r.stderr)
  return (JSON.parse(r.stdout) as {items: PodJson[]}).items.filter((p) => p.metadata.name.endsWith(`-${NODE}`))
}

export async function runningContainer(pod: string): Promise<string | undefined> {
  const p = (await podsJson()).find((x) => x.metadata.name === `${pod}-${NODE}`)
  const cs = p?.status.containerStatuses?.[0]
  return cs?.state['running'] ? cs.containerID : undefined
}

export const names = (prefix: string, n: number) => Array.from({length: n}, (_, i) => `${prefix}${i}`)

/**
 * `down --all` for this node. A `run` killed -9 inside StartContainer can leave a task that
 * containerd created but never started: CRI's StopContainer does nothing to a created task and
 * RemovePodSandbox then fails on it ("cannot delete running task"), so no CRI client can remove
 * it. Such tasks of this node are deleted with ctr, and the down is tried again, so that one
 * test's kill leaves the next test a clean node.
 */
export async function downAll(): Promise<void> {
  // A StartContainer of a run killed just now may still be under way in containerd: `down`
  // itself waits that out (apply/kill.ts removeSandbox).
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

/**
 * The hooks of a fault file: the node taken down before the first test and after each one (with
 * the runtime brought back first when the file kills it), the test's background kube-node killed,
 * the CRI client and the dirs gone at the end. `daemon(args)` starts that background kube-node.
 */
export function faultHooks(opts: {restartRuntime?: boolean} = {}): {daemon: (args: string[]) => Run} {
  let current: Run | undefined
  beforeAll(async () => {
    await downAll()
  })
  afterEach(async () => {
    if (current && current.child.exitCode === null) {
      current.child.kill('SIGKILL')
      await current.result
    }
    current = undefined
    if (opts.restartRuntime) await startContainerd()
    await downAll()
  })
  afterAll(() => {
    closeCri()
    dirs.cleanup()
  })
  return {
    daemon: (args) => {
      current = start(args)
      return current
    },
  }
}
