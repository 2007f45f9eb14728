// One truth about every pod, from any process (real containerd): while `watch` manages pods through
// a pull failure, a crash loop, readiness flapping, a liveness restart and a removal, `get pods`,
// `describe pod` and watch's own /pods report the same status at every step; and `get` never runs
// a probe (the probe counts its own runs).
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {createServer} from 'node:net'
import {mkdirSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {spawn} from 'node:child_process'
import {BUSYBOX, NODE, eventually, kn, knArgs, makeDirs, startWatch, type Daemon} from './support.js'

const dirs = makeDirs()
const manifests = join(dirs.work, 'manifests')

interface ContainerView {
  name: string
  ready: boolean
  restartCount: number
  state: Record<string, {reason?: string}>
  lastState?: {terminated?: {finishedAt?: string}}
}
interface PodJson {
  metadata: {name: string; annotations?: Record<string, string>}
  status: {phase?: string; containerStatuses?: ContainerView[]}
}

/** What must agree between readers: per container, ready, restarts, state and its reason. */
function summary(pod: PodJson | undefined): string | undefined {
  if (!pod) return undefined
  const cs = (pod.status.containerStatuses ?? []).map((c) => {
    const [state = 'none', detail] = Object.entries(c.state)[0] ?? []
    return `${c.name}:${state}:${detail?.reason ?? ''}:ready=${c.ready}:restarts=${c.restartCount}`
  })
  return `${pod.status.phase ?? ''} ${cs.join(' ')}`
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const port = (server.address() as {port: number}).port
  await new Promise((r) => server.close(r))
  return port
}

const podYaml = (name: string, container: string): string => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  terminationGracePeriodSeconds: 1
  containers:
${container}`

// The readiness probe counts its runs in /tmp/probe-runs: any run not from watch's prober shows.
// Probes get 5 s to answer: an exec on a loaded machine (other test files run beside this one) can
// take over the default 1 s, and a time-out would flap readiness while the test waits for a value.
const PROBED = podYaml(
  'probed',
  `  - name: main
    image: ${BUSYBOX}
    command: [sh, -c, "while true; do sleep 1; done"]
    readinessProbe: {exec: {command: [sh, -c, "echo run >> /tmp/probe-runs; test -f /tmp/ready"]}, periodSeconds: 1, timeoutSeconds: 5, failureThreshold: 1}
    livenessProbe: {exec: {command: [sh, -c, "test ! -f /tmp/die"]}, periodSeconds: 1, timeoutSeconds: 5, failureThreshold: 1}
`,
)
const CRASHER = podYaml('crasher', `  - {name: main, image: ${BUSYBOX}, command: [sh, -c, "exit 1"]}\n`)
const GHOST = podYaml('ghost', `  - {name: main, image: "localhost:5000/does-not-exist:1"}\n`)

describe('watch, get, describe and /pods tell the same truth (real containerd)', () => {
  let daemon: Daemon
  let port: number

  async function fromGet(name: string): Promise<PodJson | undefined> {
    const r = await kn(dirs, ['get', 'pods', '-o', 'json'])
    if (r.code !== 0) throw new Error(r.stderr)
    return (JSON.parse(r.stdout) as {items: PodJson[]}).items.find((p) => p.metadata.name === `${name}-${NODE}`)
  }
  async function fromDaemon(name: string): Promise<PodJson | undefined> {
    const res = await fetch(`http://127.0.0.1:${port}/pods`)
    return ((await res.json()) as {items: PodJson[]}).items.find((p) => p.metadata.name === `${name}-${NODE}`)
  }
  /** Waits until get and /pods agree and `want` holds of the pod; returns the summary. */
  async function agreed(name: string, want: (pod: PodJson) => boolean, what: string): Promise<string> {
    return eventually(async () => {
      const [a, b] = await Promise.all([fromGet(name), fromDaemon(name)])
      if (!a || !b || !want(b)) return undefined
      return summary(a) === summary(b) ? summary(a) : undefined
    }, 60_000, `${what}: get and /pods agreeing`)
  }
  const container = (pod: PodJson): ContainerView | undefined => pod.status.containerStatuses?.[0]
  async function exec(pod: string, cmd: string): Promise<void> {
    const r = await kn(dirs, ['exec', pod, '--', 'sh', '-c', cmd])
    expect(r.code, `exec ${cmd}: ${r.stderr}`).toBe(0)
  }
  async function describeText(name: string): Promise<string> {
    const r = await kn(dirs, ['describe', 'pod', name])
    expect(r.code, r.stderr).toBe(0)
    return r.stdout
  }

  beforeAll(async () => {
    mkdirSync(manifests, {recursive: true})
    await kn(dirs, ['down', '--all'])
    writeFileSync(join(manifests, 'probed.yaml'), PROBED)
    writeFileSync(join(manifests, 'crasher.yaml'), CRASHER)
    writeFileSync(join(manifests, 'ghost.yaml'), GHOST)
    port = await freePort()
    daemon = startWatch(dirs, [manifests, '--file-check-frequency', '1s', '--port', String(port), '--healthz-port', '0'])
  })
  afterAll(async () => {
    await daemon.stop('SIGTERM')
    await kn(dirs, ['down', '--all'])
    dirs.cleanup()
  })

  it('a pull failure: ErrImagePull or ImagePullBackOff, in get, describe and /pods alike', async () => {
    const s = await agreed('ghost', (p) => /ErrImagePull|ImagePullBackOff/.test(container(p)?.state['waiting']?.reason ?? ''), 'ghost waiting on its image')
    expect(s).toMatch(/main:waiting:(ErrImagePull|ImagePullBackOff):ready=false/)
    // Events are written a moment after the status: describe shows them once they are.
    const text = await eventually(async () => {
      const t = await describeText('ghost')
      return /Warning +Failed .*Failed to pull image "localhost:5000\/does-not-exist:1"/.test(t) ? t : undefined
    }, 10_000, 'the Failed event in describe')
    expect(text).toMatch(/Reason: +(ErrImagePull|ImagePullBackOff)/)
    const events = await kn(dirs, ['events', 'ghost', '-o', 'json'])
    expect((JSON.parse(events.stdout) as {items: {reason: string}[]}).items.map((e) => e.reason)).toEqual(expect.arrayContaining(['Pulling', 'Failed']))
  })

  it('a crash loop: CrashLoopBackOff with its restarts, as the daemon sees it', async () => {
    const s = await agreed('crasher', (p) => container(p)?.state['waiting']?.reason === 'CrashLoopBackOff', 'crasher backing off')
    expect(s).toMatch(/main:waiting:CrashLoopBackOff:ready=false:restarts=[1-9]/)
    // get says where the status came from: the running daemon's record.
    const annotations = (await fromGet('crasher'))?.metadata.annotations ?? {}
    expect(annotations['kube-node.io/status-source']).toBe('recorded')
    expect(annotations['kube-node.io/status-writer']).toMatch(/^watch \(pid \d+, running\), \d{4}-\d\d-\d\dT/)
    expect(await describeText('crasher')).toMatch(/Warning +BackOff .*Back-off restarting failed container main/)
    // A second `run` of the same pod starts from the daemon's back-off: no restart, the same reason.
    // After a crash the back-off has at least 10 s ahead, counted from when the container finished:
    // the run (3 s) starts only while at least 6 s of it are left. On a busy machine a crash can be
    // seen late; then the next one is waited for, whose back-off is twice as long.
    let restartsBefore = 0
    for (let attempt = 0; ; attempt++) {
      const seen = (await fromDaemon('crasher'))?.status.containerStatuses?.[0]?.restartCount ?? 0
      await agreed('crasher', (p) => (container(p)?.restartCount ?? 0) > seen && container(p)?.state['waiting']?.reason === 'CrashLoopBackOff', 'a fresh crash of crasher')
      const now = (await fromDaemon('crasher'))?.status.containerStatuses?.[0]
      restartsBefore = now?.restartCount ?? 0
      const finished = Date.parse(now?.lastState?.terminated?.finishedAt ?? '')
      // finishedAt has whole seconds: up to one more second may have passed.
      if (finished + 10_000 - 1_000 - Date.now() >= 6_000) break
      expect(attempt, 'a crash seen while its back-off still had 6 s ahead').toBeLessThan(3)
    }
    const second = await kn(dirs, ['run', '-f', join(manifests, 'crasher.yaml'), '--timeout', '3s', '-o', 'json'])
    expect(second.code).toBe(1)
    const [pod] = (JSON.parse(second.stdout) as {items: PodJson[]}).items
    expect(container(pod!)?.state['waiting']?.reason).toBe('CrashLoopBackOff')
    expect(container(pod!)?.restartCount).toBe(restartsBefore)
  })

  it('readiness false → true → false, and a liveness restart', async () => {
    await agreed('probed', (p) => container(p)?.state['running'] !== undefined && container(p)?.ready === false, 'probed not ready')
    await exec('probed', 'touch /tmp/ready')
    await agreed('probed', (p) => container(p)?.ready === true, 'probed ready')
    expect(await describeText('probed')).toMatch(/^ {4}Ready: +True$/m)
    await exec('probed', 'rm /tmp/ready')
    await agreed('probed', (p) => container(p)?.ready === false && container(p)?.state['running'] !== undefined, 'probed unready again')
    expect(await describeText('probed')).toMatch(/Warning +Unhealthy .*Readiness probe failed/)
    // `events --watch` prints what happens from now on.
    const watcher = spawn(process.execPath, knArgs(dirs, ['events', 'probed', '--watch']), {env: {...process.env, NO_COLOR: '1'}})
    let seen = ''
    watcher.stdout.on('data', (d: Buffer) => (seen += d.toString()))
    await exec('probed', 'touch /tmp/die')
    const s = await agreed('probed', (p) => (container(p)?.restartCount ?? 0) >= 1 && container(p)?.state['running'] !== undefined, 'probed restarted by its liveness probe')
    expect(s).toMatch(/restarts=[1-9]/)
    await eventually(() => (/Warning +Unhealthy +pod\/probed-\S+ +Liveness probe failed/.test(seen) && /Normal +Killing +pod\/probed/.test(seen) ? true : undefined), 15_000, 'events --watch to print the liveness failure and the kill')
    watcher.kill('SIGINT')
  })

  it('get never runs a probe: with the daemon stopped, the probe count stands still', async () => {
    await daemon.stop('SIGTERM')
    const count = async (): Promise<string> => (await kn(dirs, ['exec', 'probed', '--', 'sh', '-c', 'wc -l < /tmp/probe-runs'])).stdout.trim()
    const before = await count()
    for (let i = 0; i < 3; i++) expect((await kn(dirs, ['get', 'pods', '-o', 'json'])).code).toBe(0)
    await describeText('probed')
    expect(await count()).toBe(before)
    // The status says who wrote it, and that that process is gone.
    const pod = await fromGet('probed')
    expect(pod?.metadata.annotations?.['kube-node.io/status-writer']).toMatch(/^watch \(pid \d+, not running\)/)
    daemon = startWatch(dirs, [manifests, '--file-check-frequency', '1s', '--port', String(port), '--healthz-port', '0'])
  })

  it('a removed manifest: the pod is gone from get and /pods alike', async () => {
    await agreed('crasher', (p) => container(p) !== undefined, 'crasher known again after the restart')
    rmSync(join(manifests, 'crasher.yaml'))
    await eventually(async () => ((await fromGet('crasher')) === undefined && (await fromDaemon('crasher')) === undefined ? true : undefined), 60_000, 'crasher gone')
  })
})
