// The executor's steps, one by one and together, over the fake CRI and an in-memory host: what
// each step asks of the runtime and the host, and which waiting reason each failure becomes.
import {beforeEach, describe, expect, it} from 'vitest'
import type {CriErrorCode} from '../../../src/util/errors.js'
import type {Container, StaticPod} from '../../../src/api/types.js'
import {executePlan, type ExecutorDeps, type SyncInputs} from '../../../src/apply/execute-plan.js'
import {PodDirs} from '../../../src/store/pod-dir.js'
import {pullImages} from '../../../src/apply/pull-images.js'
import {createSandbox} from '../../../src/apply/create-sandbox.js'
import {startContainer} from '../../../src/apply/start-container.js'
import type {PodActions, PodAction, StartContainerAction} from '../../../src/decide/actions.js'
import {buildSandboxConfig} from '../../../src/kuberuntime/sandbox-config.js'
import {emptyDirPath, podDataDir} from '../../../src/kuberuntime/naming.js'
import type {RuntimePod} from '../../../src/kuberuntime/model.js'
import {EMPTY_OBJECT_STORE} from '../../../src/manifest/object-store.js'
import {silentLogger} from '../../../src/util/logger.js'
import {FakeRuntime} from '../../support/fake-runtime.js'
import {FakeClock} from '../../support/fake-clock.js'
import {FakeHostFs} from '../../support/fake-host-fs.js'
import {HOST_DNS, makeContainer, makeStaticPod, UID} from '../../support/pods.js'

const IMAGE = 'docker.io/library/nginx:1.27'
const ROOT = '/var/lib/kube-node'
const LOGS = '/var/log/pods'
const INPUTS: SyncInputs = {objects: EMPTY_OBJECT_STORE}

let fake: FakeRuntime
let fs: FakeHostFs
let saved: string[]

beforeEach(() => {
  fake = new FakeRuntime({images: [IMAGE], pullable: ['docker.io/library/redis:7']})
  fs = new FakeHostFs()
  saved = []
})

function deps(more: Partial<ExecutorDeps> = {}): ExecutorDeps {
  return {
    runtime: fake,
    images: fake,
    fs,
    logger: silentLogger,
    clock: new FakeClock(fake),
    rootDir: ROOT,
    podDirs: new PodDirs(more.fs ?? fs, more.rootDir ?? ROOT),
    podLogsDir: LOGS,
    hostDns: HOST_DNS,
    clusterDNS: [],
    clusterDomain: 'cluster.local',
    savePod: async (sp) => {
      saved.push(sp.pod.metadata.uid)
    },
    ...more,
  }
}

function pod(containers: Partial<Container>[] = [{}]): StaticPod {
  return makeStaticPod((p) => {
    p.spec.containers = containers.map((c, i) => makeContainer({name: i === 0 ? 'app' : `app${i}`, image: 'nginx:1.27', ...c}))
  })
}

function plan(actions: PodAction[], sandboxId = ''): PodActions {
  return {uid: UID, name: 'web-node1', namespace: 'default', sandboxId, actions, blocked: [], terminal: false}
}

const start = (name = 'app', restartCount = 0): StartContainerAction => ({type: 'StartContainer', name, containerType: 'regular', restartCount, reason: 'not started'})
const create: PodAction = {type: 'CreateSandbox', attempt: 0, reason: 'no sandbox'}

describe('pullImages', () => {
  it.each<[string, string, string[], {reason: string; permanent: boolean}[]]>([
    ['a pullable image', 'redis:7', [], []],
    ['an image no registry has: permanent', 'nope:1', [], [{reason: 'ErrImagePull', permanent: true}]],
    ['a registry that does not answer: retried', 'redis:7', ['Unavailable'], [{reason: 'ErrImagePull', permanent: false}]],
  ])('%s', async (_name, image, failures, expected) => {
    for (const code of failures) fake.failNext('PullImage', code as 'Unavailable')
    const steps: string[] = []
    const out = await pullImages(deps(), plan([{type: 'PullImage', image, containers: ['app'], reason: 'not present'}]), pod().pod, (_pod, text) => steps.push(text))
    expect(out.map((f) => ({reason: f.reason, permanent: f.permanent}))).toEqual(expected)
    // The kubelet's waiting message: the runtime's error as it gave it, without kube-node's CRI prefix.
    expect(out.every((f) => f.container === 'app' && /^rpc error: code = (NotFound|Unavailable) desc = /.test(f.message))).toBe(true)
    expect(steps).toEqual([`pull image ${image} (for "app"): not present`])
  })

  it('reports every container that needs a failed image, and pulls through serializePulls', async () => {
    let serialized = 0
    const serializePulls = <T>(pull: () => Promise<T>): Promise<T> => {
      serialized++
      return pull()
    }
    const out = await pullImages(deps({serializePulls}), plan([{type: 'PullImage', image: 'nope:1', containers: ['a', 'b'], reason: 'r'}]), pod().pod)
    expect(out.map((f) => f.container)).toEqual(['a', 'b'])
    expect(serialized).toBe(1)
  })

  it("the Pulled event has the kubelet's form: the pull's time, the time with the queue, the size", async () => {
    const clock = new FakeClock(fake)
    const events: string[] = []
    const sink = {emit: (_o: unknown, _t: string, reason: string, message: string) => void (reason === 'Pulled' && events.push(message))}
    // 2s waiting in the node's pull queue, then a pull of 1.2345s.
    const serializePulls = async <T>(pull: () => Promise<T>): Promise<T> => {
      clock.advance(2_000)
      const p = pull()
      clock.advance(1_234.5)
      return p
    }
    await pullImages(deps({serializePulls, clock, events: sink}), plan([{type: 'PullImage', image: 'redis:7', containers: ['app'], reason: 'r'}]), pod().pod)
    expect(events).toEqual(['Successfully pulled image "redis:7" in 1.234s (3.234s including waiting). Image size: 1000 bytes.'])
  })

  it('an ErrImagePull event quotes the runtime error as the kubelet does', async () => {
    const events: string[] = []
    const sink = {emit: (_o: unknown, _t: string, _r: string, message: string) => void events.push(message)}
    await pullImages(deps({events: sink}), plan([{type: 'PullImage', image: 'nope:1', containers: ['app'], reason: 'r'}]), pod().pod)
    expect(events).toContain('Failed to pull image "nope:1": rpc error: code = NotFound desc = failed to resolve reference "nope:1": not found')
  })
})

describe('createSandbox', () => {
  const sp = pod()
  const config = buildSandboxConfig(sp, {attempt: 1, podLogsDir: LOGS, hostDns: HOST_DNS, clusterDNS: [], clusterDomain: 'cluster.local'})

  it('runs the new sandbox, stops an old one still ready but keeps it (its history), and asks its IP once', async () => {
    const old = await fake.runPodSandbox(config)
    const observed: RuntimePod = {uid: UID, name: 'web-node1', namespace: 'default', manifestName: 'web', containers: [], sandboxes: [{id: old, state: 'ready', attempt: 0, createdAt: 0, ip: '10.88.0.1', hash: '', hashVersion: '', labels: {}, annotations: {}}]}
    fake.calls.length = 0
    const out = await createSandbox(deps(), config, observed)
    expect('sandboxId' in out && out.ip).toMatch(/^10\.88\./)
    expect(fake.callNames()).toEqual(['RunPodSandbox', 'StopPodSandbox', 'PodSandboxStatus'])
    expect(fake.sandboxes.has(old)).toBe(true)
    expect(fs.dirs.has(config.logDirectory)).toBe(true)
  })

  it('a sandbox the runtime refuses is a CreatePodSandboxError, and nothing old is removed', async () => {
    fake.failNext('RunPodSandbox', 'Unknown', 'no network')
    const out = await createSandbox(deps(), config, undefined)
    expect(out).toEqual({failure: {container: '', reason: 'CreatePodSandboxError', message: expect.stringContaining('no network'), permanent: false}})
    expect(fake.callNames()).toEqual(['RunPodSandbox'])
    expect(fake.sandboxes.size).toBe(0)
  })
})

describe('startContainer', () => {
  async function sandboxFor(sp: StaticPod): Promise<{id: string; config: ReturnType<typeof buildSandboxConfig>; ip: string}> {
    const config = buildSandboxConfig(sp, {attempt: 0, podLogsDir: LOGS, hostDns: HOST_DNS, clusterDNS: [], clusterDomain: 'cluster.local'})
    return {id: await fake.runPodSandbox(config), config, ip: '10.88.0.9'}
  }

  it.each<[string, Partial<Container>, string | undefined, string, boolean]>([
    ['a container missing from the spec', {}, undefined, 'CreateContainerConfigError', true],
    ['an env reference to a missing ConfigMap', {env: [{name: 'X', valueFrom: {configMapKeyRef: {name: 'cfg', key: 'k'}}}]}, undefined, 'CreateContainerConfigError', true],
    // What the runtime refuses comes back every time (a wrong command): run fails the pod on it.
    ['CreateContainer refused', {}, 'CreateContainer', 'CreateContainerError', true],
    ['StartContainer refused', {}, 'StartContainer', 'RunContainerError', true],
    // A runtime that was only slow or away may answer the next time.
    ['CreateContainer timed out', {}, 'CreateContainer:DeadlineExceeded', 'CreateContainerError', false],
    ['StartContainer while the runtime is away', {}, 'StartContainer:Unavailable', 'RunContainerError', false],
    // Gone since (the sandbox's shim died, the image was removed): the next sync makes it again.
    ['CreateContainer in a sandbox whose task is gone', {}, 'CreateContainer:NotFound', 'CreateContainerError', false],
  ])('%s → %s', async (name, container, failing, reason, permanent) => {
    const sp = pod([container])
    const sandbox = await sandboxFor(sp)
    const [call, code] = (failing ?? '').split(':') as [string, CriErrorCode | undefined]
    if (failing) fake.failNext(call, code ?? 'Unknown')
    const action = name.includes('missing from') ? start('ghost') : start()
    const out = await startContainer(deps(), sp.pod, sp.facts, action, sandbox, EMPTY_OBJECT_STORE)
    expect(out.failure).toMatchObject({reason, permanent})
    expect(out.started).toBe(false)
    if (reason === 'CreateContainerConfigError') expect(fake.callsOf('CreateContainer')).toEqual([])
  })

  it('makes the volumes ready before the config, as the kubelet mounts them before SyncPod: a config error leaves them ready', async () => {
    const sp = makeStaticPod((p) => {
      p.spec.volumes = [{name: 'scratch', emptyDir: {}}]
      p.spec.containers = [makeContainer({name: 'app', image: 'nginx:1.27', volumeMounts: [{name: 'scratch', mountPath: '/scratch'}], env: [{name: 'X', valueFrom: {configMapKeyRef: {name: 'cfg', key: 'k'}}}]})]
    })
    const out = await startContainer(deps(), sp.pod, sp.facts, start(), await sandboxFor(sp), EMPTY_OBJECT_STORE)
    expect(out.failure).toMatchObject({reason: 'CreateContainerConfigError'})
    expect(fs.dirs.has(emptyDirPath(ROOT, UID, 'scratch'))).toBe(true)
    expect(fake.callsOf('CreateContainer')).toEqual([])
  })

  it('prepares the host first: the termination-message file (0666) and the log directory', async () => {
    const sp = pod()
    const out = await startContainer(deps(), sp.pod, sp.facts, start(), await sandboxFor(sp), EMPTY_OBJECT_STORE)
    expect(out).toEqual({started: true})
    const message = [...fs.files.entries()].find(([path]) => path.startsWith(`${podDataDir(ROOT, UID)}/containers/app/`))
    expect(message?.[1]).toEqual({data: Buffer.alloc(0), mode: 0o666})
    expect(fs.dirs.has(`${LOGS}/default_web-node1_${UID}/app`)).toBe(true)
    const config = fake.callsOf('CreateContainer')[0]!.args[1] as {mounts: {containerPath: string; hostPath: string}[]}
    expect(config.mounts.find((m) => m.containerPath === '/dev/termination-log')?.hostPath).toBe(message?.[0])
  })

  it('a failed postStart hook kills the container it started: PostStartHookError', async () => {
    const sp = pod([{lifecycle: {postStart: {exec: {command: ['setup']}}}}])
    fake.failNext('ExecSync', 'Unknown', 'hook broke')
    const out = await startContainer(deps(), sp.pod, sp.facts, start(), await sandboxFor(sp), EMPTY_OBJECT_STORE)
    expect(out).toMatchObject({started: true, failure: {reason: 'PostStartHookError', permanent: false}})
    expect(fake.callNames().filter((c) => c.endsWith('Container'))).toEqual(['CreateContainer', 'StartContainer', 'StopContainer'])
  })
})

describe('executePlan', () => {
  it('makes the pod directory and records the manifest before any runtime effect, then runs the steps in order', async () => {
    const steps: string[] = []
    const sp = pod([{}, {image: 'redis:7'}])
    const out = await executePlan(
      deps(),
      sp,
      plan([create, start('app'), start('app1'), {type: 'PullImage', image: 'redis:7', containers: ['app1'], reason: 'not present'}]),
      undefined,
      {...INPUTS, onStep: (_pod, text) => steps.push(text.split(':')[0] ?? text)},
    )
    expect(out.failures).toEqual([])
    expect(out.started).toEqual(['app', 'app1'])
    expect(saved).toEqual([UID])
    expect(fs.calls.slice(0, 3)).toEqual([`mkdirPrivate ${ROOT}`, `mkdirPrivate ${ROOT}/pods`, `mkdirPrivate ${podDataDir(ROOT, UID)}`])
    expect(fake.mutatingCalls()[0]).toBe('PullImage')
    // Pulls come first, whatever their place in the plan.
    expect(steps).toEqual(['pull image redis', 'create sandbox (attempt 0)', 'start container "app"', 'start container "app1"'])
  })

  it('keeps the old container when its replacement image cannot be pulled', async () => {
    const sp = pod([{image: 'nope:2'}])
    const out = await executePlan(
      deps(),
      sp,
      plan([{type: 'PullImage', image: 'nope:2', containers: ['app'], reason: 'changed'}, {type: 'KillContainer', containerId: 'c-old', name: 'app', reason: 'image changed'}, start('app', 1)], 's-1'),
      undefined,
      INPUTS,
    )
    expect(out.failures.map((f) => f.reason)).toEqual(['ErrImagePull'])
    expect(fake.callNames().filter((c) => c !== 'PullImage')).toEqual([])
  })

  it('a sandbox config that cannot be built fails the pod at once and changes nothing', async () => {
    const sp = pod()
    sp.pod.spec.hostname = 'Not_A_Label'
    const out = await executePlan(deps(), sp, plan([create, start()]), undefined, INPUTS)
    expect(out.failures).toEqual([{container: '', reason: 'CreatePodSandboxError', message: expect.stringContaining('Not_A_Label'), permanent: true}])
    expect(fake.mutatingCalls()).toEqual([])
    expect(fs.calls).toEqual([])
  })

  it('a pod directory that cannot be made stops the plan before the runtime is touched', async () => {
    const failing = Object.assign(new FakeHostFs(), {mkdirPrivate: () => Promise.reject(new Error('read-only file system'))})
    const out = await executePlan(deps({fs: failing}), pod(), plan([create, start()]), undefined, INPUTS)
    expect(out.failures).toEqual([{container: '', reason: 'CreatePodSandboxError', message: expect.stringContaining('read-only'), permanent: false}])
    expect(fake.mutatingCalls()).toEqual([])
  })

  it("reports each step as the kubelet's events: Pulling, Pulled, Created, Started; a failure as Failed", async () => {
    const events: string[] = []
    const sink = {emit: (o: {fieldPath?: string | undefined}, type: string, reason: string, message: string) => events.push(`${type} ${reason} ${o.fieldPath ?? ''}: ${message}`)}
    await executePlan(deps({events: sink}), pod([{}, {image: 'redis:7'}]), plan([{type: 'PullImage', image: 'redis:7', containers: ['app1'], reason: 'r'}, create, start('app'), start('app1')]), undefined, INPUTS)
    expect(events).toEqual([
      'Normal Pulling spec.containers{app1}: Pulling image "redis:7"',
      'Normal Pulled spec.containers{app1}: Successfully pulled image "redis:7" in 0s (0s including waiting). Image size: 1000 bytes.',
      // No pull for app (IfNotPresent, and the image is there): the kubelet says so.
      'Normal Pulled spec.containers{app}: Container image "nginx:1.27" already present on machine',
      'Normal Created spec.containers{app}: Created container: app',
      'Normal Started spec.containers{app}: Started container app',
      'Normal Created spec.containers{app1}: Created container: app1',
      'Normal Started spec.containers{app1}: Started container app1',
    ])
    events.length = 0
    await executePlan(deps({events: sink}), pod([{image: 'nope:1'}]), plan([{type: 'PullImage', image: 'nope:1', containers: ['app'], reason: 'r'}]), undefined, INPUTS)
    expect(events.slice(1).map((e) => e.split(':')[0])).toEqual(['Warning Failed spec.containers{app}', 'Warning Failed spec.containers{app}'])
    expect(events[2]).toBe('Warning Failed spec.containers{app}: Error: ErrImagePull')
  })
})
