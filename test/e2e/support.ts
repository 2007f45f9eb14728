// Helpers for end-to-end tests: run the built CLI (bin/run.js) against the private containerd
// that scripts/runtime.sh started, and look at the result independently with `ctr`.
import {spawn, spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {afterAll, afterEach, beforeAll, expect} from 'vitest'
import {tmpdir} from 'node:os'
import {basename, join, resolve} from 'node:path'

export const ROOT = resolve(import.meta.dirname, '../..')
export const SOCKET = '/run/kube-node-e2e/containerd.sock'
export const ENDPOINT = process.env['CONTAINER_RUNTIME_ENDPOINT'] ?? `unix://${SOCKET}`
/**
 * The node this test file's kube-node runs as: one per file, so files run side by side against the
 * one runtime (vitest.e2e.config.ts) and never see, adopt or take down each other's pods.
 */
export const NODE = `e2e-${basename(expect.getState().testPath ?? 'shared').replace(/\.test\.ts$/, '').slice(0, 12).replace(/-$/, '')}`
export const BUSYBOX = 'localhost:5000/busybox:latest'

/**
 * The files whose tests wait out crash or pull back-offs, and the first back-off their kube-node
 * runs get instead of the kubelet's 10 s, through the test-only setting of README's Development.
 * Only for a file whose tests keep their meaning with it: upgrades.test.ts does not (with 1, 3 or
 * 6 s its status showed ErrImagePull at every sample and never ImagePullBackOff), nor do the files
 * that assert the 10 s (its message, how few restarts a crash loop makes in a while, a back-off
 * still ahead for a second process). A crash's first restart is at once, without a back-off.
 */
const SHORT_BACK_OFF_MS = new Map<string, number>()
/** The first back-off the kube-node runs of this test file wait. */
export const FIRST_BACK_OFF_MS = SHORT_BACK_OFF_MS.get(basename(expect.getState().testPath ?? '')) ?? 10_000
// Each file runs in a process of its own (vitest.e2e.config.ts), so this reaches only its children.
if (FIRST_BACK_OFF_MS !== 10_000) process.env['KUBE_NODE_TEST_ONLY_BACKOFF_MS'] = String(FIRST_BACK_OFF_MS)

export interface Result {
  code: number
  stdout: string
  stderr: string
}

/** A private root and log dir per test file, so tests never see each other's state on disk. */
export function makeDirs(): {rootDir: string; logsDir: string; work: string; cleanup: () => void} {
  const work = mkdtempSync(join(tmpdir(), 'kn-e2e-'))
  return {rootDir: join(work, 'root'), logsDir: join(work, 'logs'), work, cleanup: () => rmSync(work, {recursive: true, force: true})}
}

/** `endpoint`: another runtime socket, e.g. a stall proxy's (test/e2e/stall-proxy.ts). */
export function knArgs(dirs: {rootDir: string; logsDir: string}, args: string[], endpoint = ENDPOINT, node = NODE): string[] {
  const globals = ['--runtime-endpoint', endpoint, '--root-dir', dirs.rootDir, '--pod-logs-dir', dirs.logsDir, '--node-name', node]
  // Global flags go before a `--` (after it everything belongs to the command run by exec).
  const dash = args.indexOf('--')
  const [before, after] = dash === -1 ? [args, []] : [args.slice(0, dash), args.slice(dash)]
  return [join(ROOT, 'bin/run.js'), ...before, ...globals, ...after]
}

/** Runs kube-node to completion. Asynchronous so that vitest's timeouts still work. */
export function kn(dirs: {rootDir: string; logsDir: string}, args: string[], input?: string): Promise<Result> {
  return knAs(NODE, dirs, args, input)
}

/** kn as another node: a test file that runs as its own node never sees other files' pods. */
export function knAs(node: string, dirs: {rootDir: string; logsDir: string}, args: string[], input?: string): Promise<Result> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, knArgs(dirs, args, ENDPOINT, node), {env: {...process.env, NO_COLOR: '1'}})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => resolvePromise({code: code ?? -1, stdout, stderr}))
    child.stdin.end(input ?? '')
  })
}

export function ctr(args: string[]): string {
  const r = spawnSync('ctr', ['--address', SOCKET, '-n', 'k8s.io', ...args], {encoding: 'utf8'})
  if (r.status !== 0) throw new Error(`ctr ${args.join(' ')} failed: ${r.stderr}`)
  return r.stdout
}

/** IDs of every container (sandboxes included) that carries the label key=value. */
export function ctrContainersWithLabel(key: string, value: string): string[] {
  return ctr(['containers', 'ls', '-q', `labels."${key}"==${value}`])
    .split('\n')
    .filter(Boolean)
}

export function writeManifest(dir: string, name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

export function podYaml(name: string, opts: {image?: string; command?: string; restartPolicy?: string} = {}): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels:
    app: ${name}
spec:
  restartPolicy: ${opts.restartPolicy ?? 'Always'}
  terminationGracePeriodSeconds: 2
  containers:
  - name: main
    image: ${opts.image ?? BUSYBOX}
    command: ["sh", "-c", ${JSON.stringify(opts.command ?? 'echo started; while true; do sleep 1; done')}]
`
}

/** A pod whose one container turns Ready `seconds` after it starts (an exec readiness probe). */
export function readyAfterYaml(name: string, seconds: number): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: ["sh", "-c", "sleep ${seconds}; touch /tmp/ready; while true; do sleep 1; done"]
    readinessProbe:
      exec: {command: ["test", "-f", "/tmp/ready"]}
      periodSeconds: 1
`
}

export interface Daemon {
  pid: number
  stderr: () => string
  /** Sends a signal and resolves with the exit code (null when killed by the signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/** Starts `kube-node watch …` in the background. */
export function startWatch(dirs: {rootDir: string; logsDir: string}, args: string[], opts: {endpoint?: string} = {}): Daemon {
  return startKn(dirs, ['watch', ...args], opts)
}

/** Starts any kube-node command in the background (to signal it while it works). */
export function startKn(dirs: {rootDir: string; logsDir: string}, args: string[], opts: {endpoint?: string} = {}): Daemon {
  const child = spawn(process.execPath, knArgs(dirs, args, opts.endpoint), {env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']})
  let err = ''
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  child.stdout.resume()
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
  return {
    pid: child.pid!,
    stderr: () => err,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      child.kill(signal)
      return exited
    },
  }
}

/** Polls `check` until it returns a value (not undefined) or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  for (;;) {
    try {
      const v = await check()
      if (v !== undefined) return v
    } catch (err) {
      last = err
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

export interface PodView {
  metadata: {name: string; uid: string; annotations?: Record<string, string>}
  status: {
    phase: string
    containerStatuses?: {
      name: string
      containerID?: string
      ready: boolean
      restartCount: number
      image: string
      state: Record<string, {reason?: string; exitCode?: number}>
      lastState?: Record<string, {reason?: string; exitCode?: number; containerID?: string}>
    }[]
  }
}

export async function getPods(dirs: {rootDir: string; logsDir: string}): Promise<PodView[]> {
  const r = await kn(dirs, ['get', 'pods', '-o', 'json'])
  if (r.code !== 0) throw new Error(r.stderr)
  return (JSON.parse(r.stdout) as {items: PodView[]}).items.filter((p) => p.metadata.name.endsWith(`-${NODE}`))
}

/**
 * A manifests directory for a test file of `watch`: emptied, with every pod of the node taken
 * down, after each test (once `stopDaemon` has stopped that test's watch), and removed at the end.
 * Registers the hooks; call it at the top of the file.
 */
export function manifestDir(dirs: {rootDir: string; logsDir: string; work: string; cleanup: () => void}, stopDaemon: () => Promise<void>): string {
  const manifests = join(dirs.work, 'manifests')
  beforeAll(async () => {
    mkdirSync(manifests, {recursive: true})
    await kn(dirs, ['down', '--all'])
  })
  afterEach(async () => {
    await stopDaemon()
    rmSync(manifests, {recursive: true, force: true})
    mkdirSync(manifests, {recursive: true})
    await kn(dirs, ['down', '--all'])
  })
  afterAll(() => dirs.cleanup())
  return manifests
}

/**
 * The setup a file of `watch` tests shares: private dirs, a manifests dir emptied (and the node's
 * pods taken down) after each test, and `watch` started on it with quick re-lists; the daemon a
 * test started is stopped after it.
 */
export function watchSuite(): {
  dirs: ReturnType<typeof makeDirs>
  manifests: string
  /** Starts `watch` on the manifests dir (stopping the one running first). */
  watch(opts?: {endpoint?: string}): Promise<Daemon>
} {
  const dirs = makeDirs()
  let daemon: Daemon | undefined
  const stop = async (): Promise<void> => {
    if (daemon) await daemon.stop('SIGTERM')
    daemon = undefined
  }
  const manifests = manifestDir(dirs, stop)
  const quick = [manifests, '--file-check-frequency', '1s', '--port', '0', '--healthz-port', '0']
  return {
    dirs,
    manifests,
    async watch(opts = {}) {
      await stop()
      daemon = startWatch(dirs, quick, opts)
      return daemon
    },
  }
}
