// postStart and preStop hook handlers, and the postStart path of the executor: a failing hook
// kills the container and shows PostStartHookError.
import * as http from 'node:http'
import {mkdtempSync, rmSync, statSync, existsSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {namedPod} from '../../support/pods.js'
import type {Container, StaticPod} from '../../../src/api/types.js'
import type {ExecSyncResult} from '../../../src/cri/api.js'
import {runHook, LIFECYCLE_USER_AGENT, type HookTarget, type LifecycleHandler} from '../../../src/apply/lifecycle.js'
import {executePlan, type ExecutorDeps} from '../../../src/apply/execute-plan.js'
import {PodDirs} from '../../../src/store/pod-dir.js'
import type {PodActions} from '../../../src/decide/actions.js'
import {nodeHostFs} from '../../../src/host/node-host-fs.js'
import {EMPTY_OBJECT_STORE} from '../../../src/manifest/object-store.js'
import {CriError} from '../../../src/util/errors.js'
import {silentLogger, type Logger} from '../../../src/util/logger.js'
import {TERMINATION_MESSAGE_HOST_PATH_ANNOTATION} from '../../../src/kuberuntime/termination-message.js'
import {FakeRuntime} from '../../support/fake-runtime.js'
import {FakeClock} from '../../support/fake-clock.js'
import {close, closedPort, listen} from '../prober/listen.js'

const IMAGE = 'localhost:5000/busybox:latest'

function failingExec(fake: FakeRuntime, output = 'boom', exitCode = 1): void {
  Object.assign(fake, {
    execSync: async (id: string, cmd: string[], timeoutSeconds: number): Promise<ExecSyncResult> => {
      fake.calls.push({call: 'ExecSync', args: [id, cmd, timeoutSeconds]})
      return {stdout: Buffer.from(output), stderr: Buffer.alloc(0), exitCode}
    },
  })
}

describe('runHook', () => {
  let server: http.Server
  let port: number
  let userAgent: string | undefined
  const target = (): HookTarget => ({containerId: 'c1', containerName: 'main', pod: 'web_default(uid-1)', podIP: '127.0.0.1', ports: [{name: 'web', containerPort: port}]})
  const deps = (fake = new FakeRuntime()): {runtime: FakeRuntime; clock: FakeClock} => ({runtime: fake, clock: new FakeClock()})

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      userAgent = req.headers['user-agent']
      const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? '200')
      res.writeHead(status).end('body')
    })
    port = await listen(server)
  })
  afterAll(() => close(server))

  it('exec: a zero exit is success, run through ExecSync in the container', async () => {
    const d = deps()
    // ExecSync on an unknown container fails in the fake: give it one.
    Object.assign(d.runtime, {execSync: async () => ({stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: 0})})
    expect(await runHook(d, {exec: {command: ['true']}}, target(), 5000)).toEqual({ok: true})
  })

  it('exec: a non-zero exit fails with the command and its output in the message', async () => {
    const d = deps()
    failingExec(d.runtime)
    const r = await runHook(d, {exec: {command: ['sh', '-c', 'echo boom; exit 1']}}, target(), 5000)
    expect(r).toEqual({ok: false, message: 'Exec lifecycle hook ([sh -c echo boom; exit 1]) for Container "main" in Pod "web_default(uid-1)" failed - message: "boom"'})
  })

  it('exec: a runtime error fails the hook with the error', async () => {
    const d = deps()
    Object.assign(d.runtime, {execSync: async () => Promise.reject(new CriError('ExecSync', 'NotFound', 'container c1 not found'))})
    const r = await runHook(d, {exec: {command: ['true']}}, target(), 5000)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.message).toContain('error: CRI ExecSync failed (NotFound): container c1 not found')
  })

  it('exec: the timeout given is the one ExecSync gets, in whole seconds', async () => {
    const d = deps()
    failingExec(d.runtime, '', 0)
    await runHook(d, {exec: {command: ['true']}}, target(), 25_000)
    expect(d.runtime.callsOf('ExecSync')[0]!.args[2]).toBe(25)
  })

  it.each([
    ['200', 200],
    ['404 (the kubelet takes any answer as success)', 404],
    ['500 (the kubelet takes any answer as success)', 500],
  ])('httpGet: status %s succeeds', async (_name, status) => {
    const r = await runHook(deps(), {httpGet: {port: 'web', path: `/?status=${status}`}}, target(), 5000)
    expect(r).toEqual({ok: true})
    expect(userAgent).toBe(LIFECYCLE_USER_AGENT)
  })

  it('httpGet: no connection fails with the error', async () => {
    const closed = await closedPort()
    const r = await runHook(deps(), {httpGet: {port: closed, path: '/hook'}}, target(), 5000)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.message).toMatch(/^HTTP lifecycle hook \(\/hook\) for Container "main" in Pod "web_default\(uid-1\)" failed - error: Get .*ECONNREFUSED/)
  })

  it('httpGet: an unknown port name fails', async () => {
    const r = await runHook(deps(), {httpGet: {port: 'nope', path: '/'}}, target(), 5000)
    expect(r.ok).toBe(false)
  })

  it('sleep: waits the given seconds on the clock', async () => {
    const d = deps()
    const before = d.clock.now()
    expect(await runHook(d, {sleep: {seconds: 7}}, target(), 30_000)).toEqual({ok: true})
    expect(d.clock.now() - before).toBe(7000)
  })

  it('sleep: longer than the bound stops at the bound and fails', async () => {
    const d = deps()
    const before = d.clock.now()
    const r = await runHook(d, {sleep: {seconds: 60}}, target(), 10_000)
    expect(d.clock.now() - before).toBe(10_000)
    expect(r.ok).toBe(false)
  })

  it('tcpSocket is not runnable as a hook, as in the kubelet', async () => {
    const handler: LifecycleHandler = {tcpSocket: {port}}
    const r = await runHook(deps(), handler, target(), 5000)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.message).toMatch(/^Cannot run handler: invalid handler/)
  })
})

describe('executor: postStart hooks and termination-message files', () => {
  let work: string
  let fake: FakeRuntime
  let clock: FakeClock
  let warnings: string[]

  function staticPod(container: Partial<Container> = {}): StaticPod {
    const main: Container = {name: 'main', image: IMAGE, command: ['sleep', '3600'], terminationMessagePath: '/dev/termination-log', ...container}
    return namedPod('web', [main], {
      uid: 'uid-1',
      location: '/m/web.yaml',
      mutate: (p) => {
        p.spec.terminationGracePeriodSeconds = 20
        p.spec.restartPolicy = 'Always'
      },
    })
  }

  const plan: PodActions = {
    uid: 'uid-1',
    name: 'web-node1',
    namespace: 'default',
    sandboxId: '',
    actions: [
      {type: 'CreateSandbox', attempt: 0, reason: 'no sandbox'},
      {type: 'StartContainer', name: 'main', containerType: 'regular', restartCount: 0, reason: 'not started'},
    ],
    blocked: [],
    terminal: false,
  }

  function deps(): ExecutorDeps {
    const logger: Logger = {...silentLogger, warn: (msg) => warnings.push(msg)}
    return {
      runtime: fake,
      images: fake,
      fs: nodeHostFs,
      logger,
      rootDir: join(work, 'root'),
      podDirs: new PodDirs(nodeHostFs, join(work, 'root')),
      podLogsDir: join(work, 'logs'),
      hostDns: {servers: [], searches: [], options: []},
      clusterDNS: [],
      clusterDomain: 'cluster.local',
      clock,
    }
  }

  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'kn-lifecycle-'))
    fake = new FakeRuntime({images: [IMAGE]})
    clock = new FakeClock(fake)
    warnings = []
  })
  afterEach(() => rmSync(work, {recursive: true, force: true}))

  it('runs the postStart hook in the new container right after StartContainer', async () => {
    const r = await executePlan(deps(), staticPod({lifecycle: {postStart: {exec: {command: ['touch', '/ready']}}}}), plan, undefined, {objects: EMPTY_OBJECT_STORE})
    expect(r.failures).toEqual([])
    expect(r.started).toEqual(['main'])
    expect(fake.mutatingCalls()).toEqual(['RunPodSandbox', 'CreateContainer', 'StartContainer', 'ExecSync'])
    const id = [...fake.containers.keys()][0]!
    expect(fake.callsOf('ExecSync')[0]!.args.slice(0, 2)).toEqual([id, ['touch', '/ready']])
  })

  it('a failing postStart hook kills the container within its grace period and fails with PostStartHookError', async () => {
    failingExec(fake)
    const r = await executePlan(deps(), staticPod({lifecycle: {postStart: {exec: {command: ['false']}}}}), plan, undefined, {objects: EMPTY_OBJECT_STORE})
    expect(fake.mutatingCalls()).toEqual(['RunPodSandbox', 'CreateContainer', 'StartContainer', 'ExecSync', 'StopContainer'])
    const id = [...fake.containers.keys()][0]!
    expect(fake.callsOf('StopContainer')[0]!.args).toEqual([id, 20])
    expect(r.failures).toEqual([
      {container: 'main', reason: 'PostStartHookError', message: expect.stringContaining('message: "boom"'), permanent: false},
    ])
    // It did start, so a restart of it is subject to the crash-loop back-off.
    expect(r.started).toEqual(['main'])
    expect(warnings).toEqual(['FailedPostStartHook'])
  })

  it('a failing postStart hook runs the preStop hook too, as the kubelet kill does', async () => {
    failingExec(fake)
    await executePlan(deps(), staticPod({lifecycle: {postStart: {exec: {command: ['false']}}, preStop: {exec: {command: ['stop']}}}}), plan, undefined, {objects: EMPTY_OBJECT_STORE})
    expect(fake.mutatingCalls()).toEqual(['RunPodSandbox', 'CreateContainer', 'StartContainer', 'ExecSync', 'ExecSync', 'StopContainer'])
    expect(warnings).toEqual(['FailedPostStartHook', 'FailedPreStopHook'])
  })

  it('no hook: no ExecSync', async () => {
    await executePlan(deps(), staticPod(), plan, undefined, {objects: EMPTY_OBJECT_STORE})
    expect(fake.mutatingCalls()).toEqual(['RunPodSandbox', 'CreateContainer', 'StartContainer'])
  })

  it('mounts a fresh, world-writable termination-message file at terminationMessagePath', async () => {
    await executePlan(deps(), staticPod({terminationMessagePath: '/tmp/msg'}), plan, undefined, {objects: EMPTY_OBJECT_STORE})
    const config = fake.callsOf('CreateContainer')[0]!.args[1] as {mounts: {containerPath: string; hostPath: string; readonly: boolean}[]; annotations: Record<string, string>}
    const mount = config.mounts.find((m) => m.containerPath === '/tmp/msg')!
    expect(mount.readonly).toBe(false)
    expect(mount.hostPath).toMatch(new RegExp(`^${join(work, 'root', 'pods', 'uid-1', 'containers', 'main')}/[0-9a-f]{8}$`))
    expect(statSync(mount.hostPath).mode & 0o777).toBe(0o666)
    expect(statSync(mount.hostPath).size).toBe(0)
    expect(config.annotations[TERMINATION_MESSAGE_HOST_PATH_ANNOTATION]).toBe(mount.hostPath)
  })

  it('an empty terminationMessagePath mounts nothing', async () => {
    await executePlan(deps(), staticPod({terminationMessagePath: ''}), plan, undefined, {objects: EMPTY_OBJECT_STORE})
    const config = fake.callsOf('CreateContainer')[0]!.args[1] as {mounts: {containerPath: string}[]}
    // Only the pod's managed /etc/hosts, no termination-message file.
    expect(config.mounts.map((m) => m.containerPath)).toEqual(['/etc/hosts'])
    expect(existsSync(join(work, 'root', 'pods', 'uid-1', 'containers'))).toBe(false)
  })
})
