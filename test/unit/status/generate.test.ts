import {describe, expect, it} from 'vitest'
import type {PodStatus, StaticPod} from '../../../src/api/types.js'
import type {RuntimePod} from '../../../src/kuberuntime/model.js'
import type {ContainerProbeResults} from '../../../src/pod/probe-results.js'
import {generatePodStatus} from '../../../src/status/generate.js'
import {T0, basePod, baseRuntime, container, dropContainer, exited, runtimeContainer, sandbox, setContainer} from '../../support/pods.js'

interface Row {
  name: string
  pod?: (sp: StaticPod) => void
  runtime?: (rt: RuntimePod, sp: StaticPod) => void
  noRuntime?: boolean
  probes?: Record<string, ContainerProbeResults>
  waiting?: Record<string, {reason: string; message: string}>
  hostIP?: string
}

function status(row: Row): PodStatus {
  const sp = basePod()
  row.pod?.(sp)
  const rt = baseRuntime(sp)
  row.runtime?.(rt, sp)
  return generatePodStatus({
    sp,
    runtime: row.noRuntime ? undefined : rt,
    probes: new Map(Object.entries(row.probes ?? {})),
    waiting: new Map(Object.entries(row.waiting ?? {})),
    ...(row.hostIP !== undefined ? {hostIP: row.hostIP} : {}),
  })
}

const cond = (s: PodStatus, type: string): string => {
  const c = s.conditions?.find((x) => x.type === type)
  return c === undefined ? 'missing' : [c.status, c.reason, c.message].filter(Boolean).join(' ')
}
const all = (rt: RuntimePod, code: number | number[]): void =>
  ['foo1', 'foo2', 'foo3'].forEach((n, i) => setContainer(rt, n, exited(Array.isArray(code) ? code[i]! : code)))
const policy = (p: 'Never' | 'OnFailure') => (sp: StaticPod) => void (sp.pod.spec.restartPolicy = p)
const withInits = (sp: StaticPod): void => void (sp.pod.spec.initContainers = [container('init1', 'busybox:1.36'), container('init2', 'busybox:1.36')])
const initsOnly = (states: Array<Partial<Parameters<typeof runtimeContainer>[2]>>) => (rt: RuntimePod, sp: StaticPod) =>
  void (rt.containers = states.map((s, i) => runtimeContainer(sp, `init${i + 1}`, s)))

describe('generatePodStatus: phase', () => {
  it.each<Row & {phase: string}>([
    {name: 'nothing in the runtime', noRuntime: true, phase: 'Pending'},
    {name: 'all running', phase: 'Running'},
    {name: 'one container not created yet', runtime: (rt) => dropContainer(rt, 'foo3'), phase: 'Pending'},
    {name: 'Always: all exited (restarting)', runtime: (rt) => all(rt, [0, 1, 0]), phase: 'Running'},
    {name: 'Never: all exited 0', pod: policy('Never'), runtime: (rt) => all(rt, 0), phase: 'Succeeded'},
    {name: 'Never: one exited 1', pod: policy('Never'), runtime: (rt) => all(rt, [0, 1, 0]), phase: 'Failed'},
    {name: 'OnFailure: all exited 0', pod: policy('OnFailure'), runtime: (rt) => all(rt, 0), phase: 'Succeeded'},
    {name: 'OnFailure: one exited 1 (restarting)', pod: policy('OnFailure'), runtime: (rt) => all(rt, [0, 1, 0]), phase: 'Running'},
    {name: 'Never: one still running', pod: policy('Never'), runtime: (rt) => all(rt, [0, 1, 0]), phase: 'Failed'},
    {
      name: 'Always: crash-looping container waits with a previous termination',
      runtime: (rt) => setContainer(rt, 'foo2', exited(1)),
      waiting: {foo2: {reason: 'CrashLoopBackOff', message: 'back-off 10s'}},
      phase: 'Running',
    },
    {
      name: 'image pull error on a new container',
      runtime: (rt) => dropContainer(rt, 'foo2'),
      waiting: {foo2: {reason: 'ErrImagePull', message: 'not found'}},
      phase: 'Pending',
    },
    {name: 'init running', pod: withInits, runtime: initsOnly([exited(0), {}]), phase: 'Pending'},
    {name: 'init failed under Never', pod: (sp) => void (withInits(sp), policy('Never')(sp)), runtime: initsOnly([exited(1)]), phase: 'Failed'},
    {name: 'init failed under OnFailure (restarting)', pod: (sp) => void (withInits(sp), policy('OnFailure')(sp)), runtime: initsOnly([exited(1)]), phase: 'Pending'},
    {
      name: 'inits done, regular containers running',
      pod: withInits,
      runtime: (rt, sp) => void rt.containers.push(runtimeContainer(sp, 'init1', exited(0)), runtimeContainer(sp, 'init2', exited(0))),
      phase: 'Running',
    },
    {name: 'regular containers running, init statuses gone', pod: withInits, phase: 'Running'},
  ])('$name → $phase', (row) => {
    expect(status(row).phase).toBe(row.phase)
  })
})

describe('generatePodStatus: conditions, in kubelet order', () => {
  it.each<Row & {want: Record<string, string>}>([
    {
      name: 'all running, no probes',
      want: {PodReadyToStartContainers: 'True', Initialized: 'True', Ready: 'True', ContainersReady: 'True', PodScheduled: 'True'},
    },
    {
      name: 'nothing yet',
      noRuntime: true,
      want: {
        PodReadyToStartContainers: 'False',
        Ready: 'False ContainersNotReady containers with unready status: [foo1 foo2 foo3]',
        ContainersReady: 'False ContainersNotReady containers with unready status: [foo1 foo2 foo3]',
      },
    },
    {
      name: 'readiness failing on one container',
      pod: (sp) => void (sp.pod.spec.containers[1]!.readinessProbe = {exec: {command: ['true']}}),
      probes: {foo2: {readiness: 'Failure'}},
      want: {Ready: 'False ContainersNotReady containers with unready status: [foo2]'},
    },
    {
      name: 'readiness passing',
      pod: (sp) => void (sp.pod.spec.containers[1]!.readinessProbe = {exec: {command: ['true']}}),
      probes: {foo2: {readiness: 'Success'}},
      want: {Ready: 'True', ContainersReady: 'True'},
    },
    {name: 'succeeded', pod: policy('Never'), runtime: (rt) => all(rt, 0), want: {ContainersReady: 'False PodCompleted', Ready: 'False PodCompleted'}},
    {name: 'failed', pod: policy('Never'), runtime: (rt) => all(rt, [1, 0, 0]), want: {ContainersReady: 'False PodFailed'}},
    {name: 'sandbox stopped', runtime: (rt) => void (rt.sandboxes[0]!.state = 'notready'), want: {PodReadyToStartContainers: 'False'}},
    {name: 'sandbox ready but its network has no IP', runtime: (rt) => void (rt.sandboxes[0]!.ip = ''), want: {PodReadyToStartContainers: 'False'}},
    {name: 'host network: no IP of its own is fine', pod: (sp) => void (sp.pod.spec.hostNetwork = true), runtime: (rt) => void (rt.sandboxes[0]!.ip = ''), want: {PodReadyToStartContainers: 'True'}},
    {
      name: 'init in progress',
      pod: withInits,
      runtime: initsOnly([exited(0), {}]),
      want: {Initialized: 'False ContainersNotInitialized containers with incomplete status: [init2]'},
    },
    {
      name: 'readiness gate cannot be met',
      pod: (sp) => void (sp.pod.spec.readinessGates = [{conditionType: 'example.com/ok'}]),
      want: {Ready: 'False ReadinessGatesNotReady corresponding condition of pod readiness gate "example.com/ok" does not exist.', ContainersReady: 'True'},
    },
  ])('$name', (row) => {
    const s = status(row)
    expect(s.conditions?.map((c) => c.type)).toEqual(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'])
    for (const [type, want] of Object.entries(row.want)) expect(cond(s, type), type).toBe(want)
  })
})

describe('generatePodStatus: container states', () => {
  const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z')

  it('maps a running container with its identity', () => {
    const cs = status({name: 'x'}).containerStatuses![0]!
    expect(cs).toEqual({
      name: 'foo1',
      state: {running: {startedAt: iso(T0 + 2000)}},
      lastState: {},
      ready: true,
      started: true,
      restartCount: 0,
      image: 'busybox:1.36',
      imageID: expect.stringMatching(/^sha256:/),
      containerID: 'containerd://id-foo1',
    })
  })

  it.each<[string, Row, object]>([
    ['no runtime container → Waiting ContainerCreating', {name: '', noRuntime: true}, {waiting: {reason: 'ContainerCreating'}}],
    ['with init containers → Waiting PodInitializing', {name: '', noRuntime: true, pod: withInits}, {waiting: {reason: 'PodInitializing'}}],
    ['created → Waiting', {name: '', runtime: (rt) => setContainer(rt, 'foo1', {state: 'created', startedAt: 0})}, {waiting: {}}],
    [
      'exited → Terminated with the runtime reason',
      {name: '', runtime: (rt) => setContainer(rt, 'foo1', exited(2, {message: 'boom'}))},
      {terminated: {exitCode: 2, reason: 'Error', message: 'boom', startedAt: iso(T0 + 2000), finishedAt: iso(T0 + 5000), containerID: 'containerd://id-foo1'}},
    ],
    [
      'unknown after running → Terminated ContainerStatusUnknown 137',
      {name: '', runtime: (rt) => setContainer(rt, 'foo1', {state: 'unknown'})},
      {terminated: expect.objectContaining({exitCode: 137, reason: 'ContainerStatusUnknown'})},
    ],
    [
      'waiting reason replaces a termination',
      {name: '', runtime: (rt) => setContainer(rt, 'foo1', exited(1)), waiting: {foo1: {reason: 'CrashLoopBackOff', message: 'back-off 10s'}}},
      {waiting: {reason: 'CrashLoopBackOff', message: 'back-off 10s'}},
    ],
    [
      'waiting reason does not hide a running container',
      {name: '', waiting: {foo1: {reason: 'CrashLoopBackOff', message: 'stale'}}},
      {running: {startedAt: iso(T0 + 2000)}},
    ],
  ])('%s', (_name, row, want) => {
    expect(status(row).containerStatuses![0]!.state).toEqual(want)
  })

  it('moves the termination to lastState under a waiting reason', () => {
    const s = status({name: '', runtime: (rt) => setContainer(rt, 'foo1', exited(1)), waiting: {foo1: {reason: 'CrashLoopBackOff', message: 'm'}}})
    expect(s.containerStatuses![0]!.lastState?.terminated?.exitCode).toBe(1)
  })

  it('takes state from the newest instance and lastState from the one before', () => {
    const s = status({
      name: '',
      runtime: (rt, sp) => {
        setContainer(rt, 'foo1', {...exited(137), restartCount: 0})
        rt.containers.unshift(runtimeContainer(sp, 'foo1', {id: 'id-foo1-b', restartCount: 1, createdAt: T0 + 9000, startedAt: T0 + 9000}))
      },
    })
    const cs = s.containerStatuses![0]!
    expect(cs.state?.running?.startedAt).toBe(iso(T0 + 9000))
    expect(cs.lastState?.terminated?.exitCode).toBe(137)
    expect(cs.restartCount).toBe(1)
    expect(cs.containerID).toBe('containerd://id-foo1-b')
  })

  it('carries the history of a sandbox that died: restart count, lastState, the new sandbox\'s IP, the first start time', () => {
    const s = status({
      name: '',
      pod: policy('OnFailure'),
      runtime: (rt, sp) => {
        // The old sandbox is kept until GC with the containers that died in it; foo2 had succeeded.
        setContainer(rt, 'foo1', exited(137, {restartCount: 2}))
        setContainer(rt, 'foo2', exited(0))
        setContainer(rt, 'foo3', exited(137))
        rt.sandboxes = [sandbox(sp, {id: 'sandbox-2', attempt: 1, createdAt: T0 + 10_000, ip: '10.0.0.2'}), sandbox(sp, {state: 'notready'})]
        for (const n of ['foo1', 'foo3']) {
          const restartCount = n === 'foo1' ? 3 : 1
          rt.containers.unshift(runtimeContainer(sp, n, {id: `id-${n}-2`, sandboxId: 'sandbox-2', restartCount, createdAt: T0 + 11_000, startedAt: T0 + 12_000}))
        }
      },
    })
    const byName = new Map(s.containerStatuses!.map((c) => [c.name, c]))
    expect(byName.get('foo1')).toMatchObject({restartCount: 3, state: {running: {}}, lastState: {terminated: {exitCode: 137}}})
    expect(byName.get('foo2')).toMatchObject({restartCount: 0, state: {terminated: {exitCode: 0, reason: 'Completed'}}})
    expect(byName.get('foo3')).toMatchObject({restartCount: 1, lastState: {terminated: {exitCode: 137}}})
    expect(s).toMatchObject({phase: 'Running', podIP: '10.0.0.2', startTime: '2025-01-01T00:00:00Z'})
    expect(cond(s, 'PodReadyToStartContainers')).toBe('True')
  })

  it.each<[string, Row, {started: boolean; ready: boolean}]>([
    ['startup probe without result', {name: '', pod: (sp) => void (sp.pod.spec.containers[0]!.startupProbe = {exec: {command: ['true']}})}, {started: false, ready: false}],
    [
      'startup probe passed',
      {name: '', pod: (sp) => void (sp.pod.spec.containers[0]!.startupProbe = {exec: {command: ['true']}}), probes: {foo1: {startup: 'Success'}}},
      {started: true, ready: true},
    ],
    ['readiness probe without result', {name: '', pod: (sp) => void (sp.pod.spec.containers[0]!.readinessProbe = {exec: {command: ['true']}})}, {started: true, ready: false}],
    ['exited', {name: '', runtime: (rt) => setContainer(rt, 'foo1', exited(0))}, {started: false, ready: false}],
  ])('started/ready: %s', (_name, row, want) => {
    const cs = status(row).containerStatuses![0]!
    expect({started: cs.started, ready: cs.ready}).toEqual(want)
  })

  it('marks a completed init container ready and keeps its Terminated state', () => {
    const s = status({name: '', pod: withInits, runtime: initsOnly([exited(0), {}]), waiting: {init1: {reason: 'CrashLoopBackOff', message: 'x'}}})
    expect(s.initContainerStatuses?.map((c) => [c.name, c.ready, Object.keys(c.state ?? {})[0]])).toEqual([
      ['init1', true, 'terminated'],
      ['init2', false, 'running'],
    ])
  })
})

describe('generatePodStatus: pod fields', () => {
  it('takes podIP from the ready sandbox, hostIP from the input, startTime from the first sandbox', () => {
    const s = status({name: '', hostIP: '192.168.1.5'})
    expect(s).toMatchObject({
      podIP: '10.0.0.1',
      podIPs: [{ip: '10.0.0.1'}],
      hostIP: '192.168.1.5',
      hostIPs: [{ip: '192.168.1.5'}],
      startTime: '2025-01-01T00:00:00Z',
      qosClass: 'BestEffort',
    })
  })

  it('uses the host IP as pod IP for host-network pods', () => {
    const s = status({name: '', pod: (sp) => void (sp.pod.spec.hostNetwork = true), runtime: (rt) => void (rt.sandboxes[0]!.ip = ''), hostIP: '192.168.1.5'})
    expect(s.podIP).toBe('192.168.1.5')
  })

  it('has no IPs or start time for a pod that has nothing in the runtime', () => {
    const s = status({name: '', noRuntime: true})
    expect(s.podIP).toBeUndefined()
    expect(s.startTime).toBeUndefined()
    expect(s.containerStatuses).toHaveLength(3)
  })
})

describe('generatePodStatus: activeDeadlineSeconds', () => {
  it.each<[string, number, number | undefined, {phase: string; reason?: string}]>([
    ['past the deadline: Failed, DeadlineExceeded', 60, T0 + 61_000, {phase: 'Failed', reason: 'DeadlineExceeded'}],
    ['before the deadline: as the containers say', 60, T0 + 59_000, {phase: 'Running'}],
    ['no time given: no deadline is checked', 60, undefined, {phase: 'Running'}],
  ])('%s', (_name, deadline, now, want) => {
    const sp = basePod()
    sp.pod.spec.activeDeadlineSeconds = deadline
    const st = generatePodStatus({sp, runtime: baseRuntime(sp), probes: new Map(), waiting: new Map(), now})
    expect({phase: st.phase, ...(st.reason ? {reason: st.reason} : {})}).toEqual(want)
    if (want.reason) expect(st.message).toBe('Pod was active on the node longer than the specified deadline')
  })
})

describe('generatePodStatus: an edit is a new instance', () => {
  /** The runtime as the unedited pod left it, then the pod edited. */
  function edited(edit: (sp: StaticPod) => void, runtime: (rt: RuntimePod) => void = () => {}, waiting: Record<string, {reason: string; message: string}> = {}): PodStatus {
    const sp = basePod()
    const rt = baseRuntime(sp)
    runtime(rt)
    edit(sp)
    return generatePodStatus({sp, runtime: rt, probes: new Map(), waiting: new Map(Object.entries(waiting))})
  }
  const newImage = (sp: StaticPod): void => void (sp.pod.spec.containers[1]!.image = 'localhost:5000/missing:2')
  const pulling = {foo2: {reason: 'ErrImagePull', message: 'failed to pull image "localhost:5000/missing:2": not found'}}

  it('an edit whose new image cannot be pulled: the old container still runs, but the pod is not Ready and says why', () => {
    const s = edited(newImage, (rt) => setContainer(rt, 'foo2', {restartCount: 2}), pulling)
    const foo2 = s.containerStatuses?.[1]
    expect(foo2?.state).toEqual({waiting: pulling.foo2})
    expect(foo2?.ready).toBe(false)
    expect(foo2?.started).toBe(false)
    expect(foo2?.image).toBe('localhost:5000/missing:2')
    // The new definition has not run: no restarts, no last state of its own.
    expect(foo2?.restartCount).toBe(0)
    expect(foo2?.lastState).toEqual({})
    expect(cond(s, 'Ready')).toMatch(/^False ContainersNotReady/)
  })

  it('an edit not yet applied, with no waiting reason: still not Ready', () => {
    const s = edited(newImage)
    expect(s.containerStatuses?.[1]?.ready).toBe(false)
    expect(cond(s, 'Ready')).toMatch(/^False/)
  })

  it('restarts are counted from the first run of this definition, and the last state of another definition is not shown', () => {
    const sp = basePod()
    const rt = baseRuntime(sp)
    // foo1: the new definition started at attempt 4 (base 4) after an older one (attempt 3, base 0).
    rt.containers = [
      {...runtimeContainer(sp, 'foo1', {restartCount: 4, restartBase: 4}), id: 'new'},
      {...runtimeContainer(sp, 'foo1', {...exited(137), restartCount: 3, restartBase: 0, createdAt: T0 - 1000}), id: 'old'},
      ...rt.containers.filter((c) => c.name !== 'foo1'),
    ]
    const s = generatePodStatus({sp, runtime: rt, probes: new Map(), waiting: new Map()})
    expect(s.containerStatuses?.[0]).toMatchObject({restartCount: 0, lastState: {}, ready: true})
  })

  it('a crash of the same definition counts and shows its last state', () => {
    const sp = basePod()
    const rt = baseRuntime(sp)
    rt.containers = [
      {...runtimeContainer(sp, 'foo1', {restartCount: 5, restartBase: 4}), id: 'new'},
      {...runtimeContainer(sp, 'foo1', {...exited(1), restartCount: 4, restartBase: 4, createdAt: T0 - 1000}), id: 'old'},
      ...rt.containers.filter((c) => c.name !== 'foo1'),
    ]
    const s = generatePodStatus({sp, runtime: rt, probes: new Map(), waiting: new Map()})
    expect(s.containerStatuses?.[0]?.restartCount).toBe(1)
    expect(s.containerStatuses?.[0]?.lastState?.terminated?.exitCode).toBe(1)
  })
})
