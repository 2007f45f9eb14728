// Pod spec coverage against a real containerd: a kubeadm-style etcd static pod, httpGet probes
// restarting a broken web server, init containers, ConfigMaps, preStop hooks, hostPorts and
// admission. Runs as its own node ("spec") so that other e2e files never see these pods.
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {spawn} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, readdirSync, statSync} from 'node:fs'
import {createServer} from 'node:net'
import {networkInterfaces} from 'node:os'
import {join} from 'node:path'
import {BUSYBOX, ENDPOINT, ROOT, ctrContainersWithLabel, eventually, makeDirs, writeManifest, type Result} from './support.js'

const NODE = 'spec'
const POD_NAME = 'io.kubernetes.pod.name'
const dirs = makeDirs()

function args(rest: string[]): string[] {
  const flags = ['--runtime-endpoint', ENDPOINT, '--root-dir', dirs.rootDir, '--pod-logs-dir', dirs.logsDir, '--node-name', NODE]
  // Before `--`: what follows it is exec's command line.
  const end = rest.indexOf('--')
  return end < 0 ? [join(ROOT, 'bin/run.js'), ...rest, ...flags] : [join(ROOT, 'bin/run.js'), ...rest.slice(0, end), ...flags, ...rest.slice(end)]
}

/** kube-node as node "spec", to completion; `ms` is how long it took. */
function kn(rest: string[]): Promise<Result & {ms: number}> {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args(rest), {env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => resolve({code: code ?? -1, stdout, stderr, ms: Date.now() - started}))
  })
}

interface Watch {
  stderr: () => string
  stop: () => Promise<void>
}

function startWatch(manifestDir: string): Watch {
  const quick = ['--file-check-frequency', '1s', '--port', '0', '--healthz-port', '0']
  const child = spawn(process.execPath, args(['watch', manifestDir, ...quick]), {env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']})
  let err = ''
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  child.stdout.resume()
  const exited = new Promise<void>((r) => child.on('exit', () => r()))
  return {
    stderr: () => err,
    async stop() {
      child.kill('SIGKILL')
      await exited
    },
  }
}

interface ContainerStatus {
  name: string
  ready: boolean
  restartCount: number
  containerID?: string
  state: {running?: object; waiting?: {reason?: string}; terminated?: {reason?: string; exitCode: number}}
  lastState?: {terminated?: {reason?: string; exitCode: number}}
}
interface Pod {
  metadata: {name: string; namespace: string}
  status: {
    phase: string
    reason?: string
    message?: string
    podIP?: string
    conditions?: {type: string; status: string}[]
    containerStatuses?: ContainerStatus[]
    initContainerStatuses?: ContainerStatus[]
  }
}

function items(stdout: string): Pod[] {
  return (JSON.parse(stdout) as {items: Pod[]}).items
}

function condition(pod: Pod, type: string): string | undefined {
  return pod.status.conditions?.find((c) => c.type === type)?.status
}

async function getPod(name: string): Promise<Pod | undefined> {
  const r = await kn(['get', 'pods', '-o', 'json'])
  if (r.code !== 0) throw new Error(r.stderr)
  return items(r.stdout).find((p) => p.metadata.name === `${name}-${NODE}`)
}

/** Resolves true when something accepts TCP connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(true))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)))
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '0.0.0.0', () => {
      const {port} = server.address() as {port: number}
      server.close(() => resolve(port))
    })
  })
}

async function httpText(url: string): Promise<{status: number; body: string}> {
  const res = await fetch(url, {signal: AbortSignal.timeout(3000)})
  return {status: res.status, body: await res.text()}
}

const sleepForever = 'trap "exit 0" TERM; while true; do sleep 1 & wait $!; done'

/** A busybox httpd pod serving /www (created in the container's own filesystem). */
function httpdPod(name: string, opts: {hostPort?: number; probes?: string} = {}): string {
  const port = opts.hostPort === undefined ? '' : `\n    ports:\n    - {containerPort: 8080, hostPort: ${opts.hostPort}}`
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  terminationGracePeriodSeconds: 2
  containers:
  - name: httpd
    image: ${BUSYBOX}
    command: ["sh", "-c", 'mkdir -p /www && echo ok > /www/healthz && echo "hello from ${name}" > /www/index.html; trap "exit 0" TERM; httpd -f -p 8080 -h /www & wait $!']${port}${opts.probes ?? ''}
`
}

describe('pod spec coverage (real containerd)', () => {
  let watch: Watch | undefined

  beforeAll(async () => {
    await kn(['down', '--all'])
  })
  afterEach(async () => {
    await watch?.stop()
    watch = undefined
    await kn(['down', '--all'])
  })
  afterAll(() => dirs.cleanup())

  it('runs a kubeadm-style etcd static pod to Ready and answers etcdctl endpoint health', async () => {
    for (const port of [2379, 2380, 2381]) expect(await listening(port), `port ${port} must be free for etcd`).toBe(false)
    const data = join(dirs.work, 'etcd-data')
    const text = readFileSync(join(ROOT, 'manifests/etcd.yaml'), 'utf8')
    expect(text).toContain('path: /var/lib/etcd\n')
    const manifest = writeManifest(dirs.work, 'etcd.yaml', text.replace('path: /var/lib/etcd\n', `path: ${data}\n`))

    const run = await kn(['run', '-f', manifest, '--wait', 'ready', '--timeout', '3m', '-o', 'json'])
    expect(run.code, run.stderr).toBe(0)
    const [pod] = items(run.stdout)
    expect(pod!.metadata).toMatchObject({name: `etcd-${NODE}`, namespace: 'kube-system'})
    expect(condition(pod!, 'Ready')).toBe('True')
    expect(pod!.status.containerStatuses![0]).toMatchObject({name: 'etcd', ready: true, restartCount: 0})

    const health = await kn(['exec', 'etcd', '--', 'etcdctl', '--endpoints=http://127.0.0.1:2379', 'endpoint', 'health'])
    expect(health.code, health.stderr).toBe(0)
    expect(health.stdout + health.stderr).toContain('http://127.0.0.1:2379 is healthy')
    // Host network: the probes' endpoint answers on the host's loopback.
    const metrics = await httpText('http://127.0.0.1:2381/health?exclude=NOSPACE&serializable=true')
    expect(metrics.status).toBe(200)
    expect(metrics.body).toContain('"health":"true"')
    // The hostPath data dir (DirectoryOrCreate) holds etcd's member directory.
    expect(readdirSync(data)).toContain('member')
    // Read back from the runtime: `get` probes readiness and startup once, so etcd reads Ready.
    const got = (await getPod('etcd'))!
    expect(got.status.phase).toBe('Running')
    expect(condition(got, 'Ready')).toBe('True')
    expect(got.status.containerStatuses![0]).toMatchObject({name: 'etcd', restartCount: 0, state: {running: expect.anything()}})

    const down = await kn(['down', '-f', manifest])
    expect(down.code, down.stderr).toBe(0)
    await eventually(async () => ((await listening(2379)) ? undefined : true), 10_000, 'port 2379 free after down')
  }, 200_000)

  it('restarts an httpd whose liveness probe fails, under watch', async () => {
    const probes = `
    readinessProbe:
      httpGet: {path: /healthz, port: 8080}
      periodSeconds: 1
      failureThreshold: 1
    livenessProbe:
      httpGet: {path: /healthz, port: 8080}
      periodSeconds: 1
      failureThreshold: 2`
    const manifestDir = join(dirs.work, 'watched')
    mkdirSync(manifestDir, {recursive: true})
    const manifest = writeManifest(manifestDir, 'probed.yaml', httpdPod('probed', {probes}))

    const run = await kn(['run', '-f', manifest, '--wait', 'ready', '--timeout', '60s', '-o', 'json'])
    expect(run.code, run.stderr).toBe(0)
    const before = items(run.stdout)[0]!
    expect(condition(before, 'Ready')).toBe('True')
    const firstId = before.status.containerStatuses![0]!.containerID

    watch = startWatch(manifestDir)
    // Let watch adopt the pod and start probing it before breaking the server.
    const w = watch
    await eventually(() => (/Pod added.*probed-spec/.test(w.stderr()) ? true : undefined), 20_000, 'watch adopting the pod')
    await new Promise((r) => setTimeout(r, 2000))
    const broken = await kn(['exec', 'probed', '--', 'rm', '/www/healthz'])
    expect(broken.code, broken.stderr).toBe(0)

    const after = await eventually(
      async () => {
        const cs = (await getPod('probed'))?.status.containerStatuses?.[0]
        return cs && cs.restartCount === 1 && cs.state.running ? cs : undefined
      },
      40_000,
      'restartCount 1 after the liveness probe failed',
    )
    expect(after.containerID).not.toBe(firstId)
    expect(w.stderr()).toMatch(/liveness probe failed.*statuscode: 404/)
    expect(w.stderr()).toMatch(/stop container .*httpd.* failed its liveness probe/)
    // The new container recreated /www/healthz: it serves again.
    const again = await kn(['exec', 'probed', '--', 'cat', '/www/healthz'])
    expect(again.stdout).toBe('ok\n')
  }, 90_000)

  it('init containers fill an emptyDir that the main container reads', async () => {
    const manifest = writeManifest(
      dirs.work,
      'init.yaml',
      `apiVersion: v1
kind: Pod
metadata: {name: initdemo}
spec:
  terminationGracePeriodSeconds: 2
  initContainers:
  - name: first
    image: ${BUSYBOX}
    command: ["sh", "-c", "echo written-by-first > /shared/msg"]
    volumeMounts: [{name: shared, mountPath: /shared}]
  - name: second
    image: ${BUSYBOX}
    command: ["sh", "-c", "echo appended-by-second >> /shared/msg"]
    volumeMounts: [{name: shared, mountPath: /shared}]
  containers:
  - name: main
    image: ${BUSYBOX}
    command: ["sh", "-c", 'cat /shared/msg; ${sleepForever}']
    volumeMounts: [{name: shared, mountPath: /shared}]
  volumes:
  - name: shared
    emptyDir: {}
`,
    )
    const run = await kn(['run', '-f', manifest, '--timeout', '60s'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(new RegExp(`^initdemo-${NODE}\\s+1/1\\s+Running\\s+0`, 'm'))

    const logs = await eventually(async () => {
      const r = await kn(['logs', 'initdemo', '-c', 'main'])
      return r.stdout.includes('appended-by-second') ? r : undefined
    }, 10_000, 'main container log')
    expect(logs.stdout).toBe('written-by-first\nappended-by-second\n')

    const pod = (await getPod('initdemo'))!
    expect(pod.status.phase).toBe('Running')
    expect(condition(pod, 'Initialized')).toBe('True')
    expect(pod.status.initContainerStatuses?.map((s) => [s.name, s.state.terminated?.reason, s.state.terminated?.exitCode])).toEqual([
      ['first', 'Completed', 0],
      ['second', 'Completed', 0],
    ])
    const table = await kn(['get', 'pods', 'initdemo'])
    expect(table.stdout).toMatch(new RegExp(`^initdemo-${NODE}\\s+1/1\\s+Running\\s+0`, 'm'))
  }, 90_000)

  it('mounts a ConfigMap from the same file and feeds env and envFrom (manifests/web.yaml)', async () => {
    const manifest = join(ROOT, 'manifests/web.yaml')
    const run = await kn(['run', '-f', manifest, '--wait', 'ready', '--timeout', '60s', '-o', 'json'])
    expect(run.code, run.stderr).toBe(0)
    const pod = items(run.stdout).find((p) => p.metadata.name === `web-${NODE}`)!
    expect(condition(pod, 'Ready')).toBe('True')

    const file = await kn(['exec', 'web', '--', 'cat', '/www/index.html'])
    expect(file.code, file.stderr).toBe(0)
    expect(file.stdout).toBe('<h1>hello from kube-node</h1>\n')
    const env = await kn(['exec', 'web', '--', 'sh', '-c', 'echo "$GREETING|$LOG_LEVEL|$PORT"'])
    expect(env.stdout).toBe('hello from a ConfigMap|info|8080\n')
    // The page itself, from the host through the pod IP on the bridge.
    const page = await eventually(() => httpText(`http://${pod.status.podIP}:8080/`), 10_000, 'web page')
    expect(page).toEqual({status: 200, body: '<h1>hello from kube-node</h1>\n'})
  }, 90_000)

  it('runs a preStop hook within the grace period before SIGTERM on down', async () => {
    const marks = join(dirs.work, 'prestop-marks')
    const manifest = writeManifest(
      dirs.work,
      'prestop.yaml',
      `apiVersion: v1
kind: Pod
metadata: {name: prestop}
spec:
  terminationGracePeriodSeconds: 10
  containers:
  - name: main
    image: ${BUSYBOX}
    command: ["sh", "-c", 'trap "touch /marks/term; exit 0" TERM; while true; do sleep 1 & wait $!; done']
    lifecycle:
      preStop:
        exec:
          command: ["sh", "-c", "touch /marks/prestop-started; sleep 2; touch /marks/prestop-done"]
    volumeMounts: [{name: marks, mountPath: /marks}]
  volumes:
  - name: marks
    hostPath: {path: ${marks}, type: DirectoryOrCreate}
`,
    )
    const run = await kn(['run', '-f', manifest, '--timeout', '60s'])
    expect(run.code, run.stderr).toBe(0)

    const down = await kn(['down', '-f', manifest])
    expect(down.code, down.stderr).toBe(0)
    expect(down.ms).toBeGreaterThanOrEqual(2000)
    expect(down.ms).toBeLessThan(15_000)
    for (const f of ['prestop-started', 'prestop-done', 'term']) expect(existsSync(join(marks, f)), f).toBe(true)
    // SIGTERM came only after the hook had finished.
    expect(statSync(join(marks, 'term')).mtimeMs).toBeGreaterThanOrEqual(statSync(join(marks, 'prestop-done')).mtimeMs)
    expect(ctrContainersWithLabel(POD_NAME, `prestop-${NODE}`)).toEqual([])
  }, 60_000)

  it('publishes a hostPort reachable from the host (127.0.0.1 and its primary address)', async () => {
    const port = await freePort()
    const manifest = writeManifest(dirs.work, 'hostport.yaml', httpdPod('hostport', {hostPort: port}))
    const run = await kn(['run', '-f', manifest, '--timeout', '60s'])
    expect(run.code, run.stderr).toBe(0)
    // The CNI portmap plugin DNATs local traffic too (it sets route_localnet on the bridge).
    const local = await eventually(() => httpText(`http://127.0.0.1:${port}/`), 15_000, `127.0.0.1:${port}`)
    expect(local).toEqual({status: 200, body: 'hello from hostport\n'})
    const primary = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal && !a.address.startsWith('10.77.'))
    if (primary) {
      expect(await httpText(`http://${primary.address}:${port}/`)).toEqual({status: 200, body: 'hello from hostport\n'})
    }
  }, 60_000)

  it('rejects the second of two pods asking for the same hostPort (NodePorts) and creates nothing for it', async () => {
    const port = await freePort()
    const manifest = writeManifest(dirs.work, 'ports.yaml', `${httpdPod('porta', {hostPort: port})}---\n${httpdPod('portb', {hostPort: port})}`)
    const run = await kn(['run', '-f', manifest, '--timeout', '60s', '-o', 'json'])
    expect(run.code).toBe(1)
    const pods = items(run.stdout)
    const first = pods.find((p) => p.metadata.name === `porta-${NODE}`)!
    const second = pods.find((p) => p.metadata.name === `portb-${NODE}`)!
    expect(first.status.phase).toBe('Running')
    expect(second.status).toMatchObject({phase: 'Failed', reason: 'NodePorts'})
    expect(second.status.message).toContain(`${port}`)
    expect(run.stderr).toMatch(/portb-spec.*NodePorts/)
    expect(ctrContainersWithLabel(POD_NAME, `portb-${NODE}`)).toEqual([])
    expect(ctrContainersWithLabel(POD_NAME, `porta-${NODE}`)).toHaveLength(2)
  }, 60_000)

  it('gives containers a managed /etc/hosts with hostAliases, and refuses runAsNonRoot for a root image', async () => {
    const manifest = writeManifest(
      dirs.work,
      'hosts.yaml',
      `apiVersion: v1
kind: Pod
metadata: {name: hosts}
spec:
  terminationGracePeriodSeconds: 1
  hostAliases: [{ip: 10.9.8.7, hostnames: [db.internal]}]
  containers:
  - {name: main, image: ${BUSYBOX}, command: [sh, -c, "trap 'exit 0' TERM; sleep 3600 & wait"]}
---
apiVersion: v1
kind: Pod
metadata: {name: nonroot}
spec:
  terminationGracePeriodSeconds: 1
  securityContext: {runAsNonRoot: true}
  containers:
  - {name: main, image: ${BUSYBOX}, command: [sleep, "3600"]}
`,
    )
    const run = await kn(['run', '-f', manifest, '--timeout', '20s', '-o', 'json'])
    expect(run.code).toBe(1)
    const nonroot = items(run.stdout).find((p) => p.metadata.name === `nonroot-${NODE}`)!
    expect(nonroot.status.containerStatuses?.[0]?.state).toMatchObject({waiting: {reason: 'CreateContainerConfigError', message: 'container has runAsNonRoot and image will run as root'}})
    const hosts = await kn(['exec', 'hosts', '--', 'cat', '/etc/hosts'])
    expect(hosts.code, hosts.stderr).toBe(0)
    expect(hosts.stdout).toMatch(/^# Kubernetes-managed hosts file\./)
    expect(hosts.stdout).toMatch(new RegExp(`^\\d+\\.\\d+\\.\\d+\\.\\d+\\thosts-${NODE}$`, 'm'))
    expect(hosts.stdout).toMatch(/^10\.9\.8\.7\tdb\.internal$/m)
    // Only the failing pod's container is missing: nothing was started for it.
    expect(ctrContainersWithLabel(POD_NAME, `hosts-${NODE}`)).toHaveLength(2)
  }, 60_000)
})
