import {describe, expect, it} from 'vitest'
import type {StaticPod} from '../../../src/api/types.js'
import type {RuntimePod} from '../../../src/kuberuntime/model.js'
import type {BackOffEntry, PodActions} from '../../../src/decide/actions.js'
import type {ContainerProbeResults} from '../../../src/pod/probe-results.js'
import {backOffMessage, computePodActions} from '../../../src/decide/compute-pod-actions.js'
import {
  NOW,
  PRESENT,
  T0,
  basePod,
  baseRuntime,
  container,
  dropContainer,
  exited,
  runtimeContainer,
  sandbox,
  setContainer,
  summary,
  withLiveFacts,
} from '../../support/pods.js'

interface Row {
  name: string
  /** Changes the desired pod after the runtime was built from the base pod. */
  pod?: (sp: StaticPod) => void
  /** Changes the runtime; `sp` is the pod the runtime was built from. */
  runtime?: (rt: RuntimePod, sp: StaticPod) => void
  noRuntime?: boolean
  probes?: Record<string, ContainerProbeResults>
  backOff?: Record<string, BackOffEntry>
  /** Replaces the images present in the runtime. */
  images?: string[]
  want: string[]
  blocked?: string[]
  terminal?: boolean
}

type Base = () => StaticPod

function compute(row: Row, base: Base = basePod): PodActions {
  const built = base()
  const rt = baseRuntime(built)
  row.runtime?.(rt, built)
  const sp = withLiveFacts(structuredClone(built))
  row.pod?.(sp)
  return computePodActions({
    sp,
    runtime: row.noRuntime ? undefined : rt,
    images: row.images ? new Set(row.images) : PRESENT,
    probes: new Map(Object.entries(row.probes ?? {})),
    backOff: new Map(Object.entries(row.backOff ?? {})),
    now: NOW,
  })
}

function check(row: Row, base?: Base): void {
  const plan = compute(row, base)
  expect(plan.actions.map(summary)).toEqual(row.want)
  expect(plan.blocked.map((b) => `${b.name} ${b.reason}`)).toEqual(row.blocked ?? [])
  expect(plan.terminal).toBe(row.terminal ?? false)
  for (const a of plan.actions) expect(a.reason.length, `reason of ${summary(a)}`).toBeGreaterThan(10)
  for (const b of plan.blocked) expect(b.message).not.toBe('')
}

const never = (sp: StaticPod): void => void (sp.pod.spec.restartPolicy = 'Never')
const onFailure = (sp: StaticPod): void => void (sp.pod.spec.restartPolicy = 'OnFailure')
const allRegular = (restart: number): string[] => ['foo1', 'foo2', 'foo3'].map((n) => `Start regular ${n} restart=${restart}`)

describe('computePodActions: sandbox and regular containers', () => {
  const rows: Row[] = [
    {name: 'everything running and current: nothing to do', want: []},
    {name: 'new pod: no sandbox → create one and start every container', noRuntime: true, want: ['CreateSandbox attempt=0', ...allRegular(0)]},
    {
      name: 'runtime knows the UID but has nothing left → create sandbox attempt 0',
      runtime: (rt) => void ((rt.sandboxes = []), (rt.containers = [])),
      want: ['CreateSandbox attempt=0', ...allRegular(0)],
    },
    {
      name: 'sandbox not ready → kill pod, new sandbox attempt 1, restart counts continue',
      runtime: (rt) => void (rt.sandboxes[0]!.state = 'notready'),
      want: ['KillPod', 'CreateSandbox attempt=1', ...allRegular(1)],
    },
    {
      name: 'two ready sandboxes → recreate with one',
      runtime: (rt, sp) => void rt.sandboxes.unshift(sandbox(sp, {id: 'sandbox-2', attempt: 1, createdAt: T0 + 100})),
      want: ['KillPod', 'CreateSandbox attempt=2', ...allRegular(1)],
    },
    {
      name: 'sandbox hash changed (hostNetwork) → kill pod and recreate',
      pod: (sp) => void (sp.pod.spec.hostNetwork = true),
      want: ['KillPod', 'CreateSandbox attempt=1', ...allRegular(1)],
    },
    {
      name: 'ready sandbox without an IP (pod network) → kill pod and recreate',
      runtime: (rt) => void (rt.sandboxes[0]!.ip = ''),
      want: ['KillPod', 'CreateSandbox attempt=1', ...allRegular(1)],
    },
    {
      name: 'host-network sandbox has no IP of its own → nothing',
      pod: (sp) => void (sp.pod.spec.hostNetwork = true),
      runtime: (rt) => void ((rt.sandboxes[0]!.ip = ''), delete rt.sandboxes[0]!.hash, delete rt.sandboxes[0]!.hashVersion),
      want: [],
    },
    {
      name: 'adopted sandbox without hash is not treated as changed',
      pod: (sp) => void (sp.pod.spec.hostNetwork = true),
      runtime: (rt) => void (delete rt.sandboxes[0]!.hash, delete rt.sandboxes[0]!.hashVersion),
      want: [],
    },
    {
      name: 'container hash changed (command) → kill it and start it again',
      pod: (sp) => void (sp.pod.spec.containers[1]!.command = ['sleep', '1000']),
      want: ['KillContainer foo2', 'Start regular foo2 restart=1'],
    },
    {
      name: 'container hash changed under restartPolicy Never → still replaced',
      pod: (sp) => void ((sp.pod.spec.containers[1]!.command = ['sleep', '1']), never(sp)),
      want: ['KillContainer foo2', 'Start regular foo2 restart=1'],
    },
    {
      name: 'adopted container without hash annotation is kept despite a changed spec',
      pod: (sp) => void (sp.pod.spec.containers[1]!.command = ['sleep', '1000']),
      runtime: (rt) => setContainer(rt, 'foo2', {hash: ''}),
      want: [],
    },
    {
      name: 'container from an unknown hash version is kept',
      pod: (sp) => void (sp.pod.spec.containers[1]!.command = ['sleep', '1000']),
      runtime: (rt) => setContainer(rt, 'foo2', {hashVersion: '99'}),
      want: [],
    },
    {
      name: 'new image not present: the pull comes before the kill',
      pod: (sp) => void (sp.pod.spec.containers[1]!.image = 'alpine:3.21'),
      want: ['PullImage alpine:3.21 for foo2', 'KillContainer foo2', 'Start regular foo2 restart=1'],
    },
    {name: 'Always: exited 0 → restart', runtime: (rt) => setContainer(rt, 'foo2', exited(0)), want: ['Start regular foo2 restart=1']},
    {
      name: 'Always: exited 0 and exited 111 → restart both',
      runtime: (rt) => void (setContainer(rt, 'foo1', exited(0)), setContainer(rt, 'foo2', exited(111))),
      want: ['Start regular foo1 restart=1', 'Start regular foo2 restart=1'],
    },
    {name: 'OnFailure: exited 0 → stays dead', pod: onFailure, runtime: (rt) => setContainer(rt, 'foo2', exited(0)), want: []},
    {
      name: 'OnFailure: exited 1 → restart',
      pod: onFailure,
      runtime: (rt) => setContainer(rt, 'foo2', exited(1, {restartCount: 3})),
      want: ['Start regular foo2 restart=4'],
    },
    {name: 'Never: exited 1 with others running → nothing', pod: never, runtime: (rt) => setContainer(rt, 'foo2', exited(1)), want: []},
    {
      name: 'created but never started → kill it and start again',
      runtime: (rt) => setContainer(rt, 'foo2', {state: 'created', startedAt: 0}),
      want: ['KillContainer foo2', 'Start regular foo2 restart=1'],
    },
    {
      name: 'unknown state → kill and start again (also under Never)',
      pod: never,
      runtime: (rt) => setContainer(rt, 'foo2', {state: 'unknown'}),
      want: ['KillContainer foo2', 'Start regular foo2 restart=1'],
    },
    {name: 'no status for one container → start it', runtime: (rt) => dropContainer(rt, 'foo3'), want: ['Start regular foo3 restart=0']},
    {name: 'liveness failure → kill and restart', probes: {foo2: {liveness: 'Failure'}}, want: ['KillContainer foo2', 'Start regular foo2 restart=1']},
    {name: 'liveness failure under Never → kill only', pod: never, probes: {foo2: {liveness: 'Failure'}}, want: ['KillContainer foo2']},
    {name: 'startup failure → kill and restart', probes: {foo2: {startup: 'Failure'}}, want: ['KillContainer foo2', 'Start regular foo2 restart=1']},
    {name: 'readiness failure → nothing (status only)', probes: {foo2: {readiness: 'Failure'}}, want: []},
    {
      name: 'crash-loop back-off blocks the restart',
      runtime: (rt) => setContainer(rt, 'foo2', exited(1)),
      backOff: {foo2: {until: NOW + 5000, reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container'}},
      want: [],
      blocked: ['foo2 CrashLoopBackOff'],
    },
    {
      name: 'expired back-off lets the restart go',
      runtime: (rt) => setContainer(rt, 'foo2', exited(1)),
      backOff: {foo2: {until: NOW - 1, reason: 'CrashLoopBackOff', message: 'back-off 10s'}},
      want: ['Start regular foo2 restart=1'],
    },
    {
      name: 'image pull back-off blocks the start and its pull',
      runtime: (rt) => dropContainer(rt, 'foo2'),
      images: ['docker.io/library/busybox:1.36', 'docker.io/library/nginx:1.27'],
      backOff: {foo2: {until: NOW + 1, reason: 'ImagePullBackOff', message: 'Back-off pulling image "alpine:3.20"'}},
      want: [],
      blocked: ['foo2 ImagePullBackOff'],
    },
    {
      name: 'image Always → pulled even when present',
      pod: (sp) => void (sp.pod.spec.containers[1]!.imagePullPolicy = 'Always'),
      runtime: (rt) => dropContainer(rt, 'foo2'),
      want: ['PullImage alpine:3.20 for foo2', 'Start regular foo2 restart=0'],
    },
    {name: 'image IfNotPresent and present → no pull', runtime: (rt) => dropContainer(rt, 'foo2'), want: ['Start regular foo2 restart=0']},
    {
      name: 'image IfNotPresent and absent → pull',
      runtime: (rt) => dropContainer(rt, 'foo2'),
      images: [],
      want: ['PullImage alpine:3.20 for foo2', 'Start regular foo2 restart=0'],
    },
    {
      name: 'image Never and absent → ErrImageNeverPull, not started',
      pod: (sp) => void (sp.pod.spec.containers[1]!.imagePullPolicy = 'Never'),
      runtime: (rt) => dropContainer(rt, 'foo2'),
      images: [],
      want: [],
      blocked: ['foo2 ErrImageNeverPull'],
    },
    {
      name: 'image Never and present → started',
      pod: (sp) => void (sp.pod.spec.containers[1]!.imagePullPolicy = 'Never'),
      runtime: (rt) => dropContainer(rt, 'foo2'),
      want: ['Start regular foo2 restart=0'],
    },
    {
      name: 'image name invalid → InvalidImageName, not started',
      pod: (sp) => void (sp.pod.spec.containers[1]!.image = 'Not A Valid:Image'),
      runtime: (rt) => dropContainer(rt, 'foo2'),
      want: [],
      blocked: ['foo2 InvalidImageName'],
    },
    {
      name: 'one pull per distinct image, listing every container',
      pod: (sp) => void (sp.pod.spec.containers[2]!.image = 'docker.io/library/alpine:3.20'),
      noRuntime: true,
      images: ['docker.io/library/busybox:1.36'],
      want: ['PullImage alpine:3.20 for foo2,foo3', 'CreateSandbox attempt=0', ...allRegular(0)],
    },
    {
      name: 'OnFailure: sandbox not ready, one container exited 0 → new sandbox without it',
      pod: onFailure,
      runtime: (rt) => void ((rt.sandboxes[0]!.state = 'notready'), setContainer(rt, 'foo2', exited(0))),
      want: ['KillPod', 'CreateSandbox attempt=1', 'Start regular foo1 restart=1', 'Start regular foo3 restart=1'],
    },
    {
      name: 'Never: sandbox not ready and no container ever ran → new sandbox',
      pod: never,
      runtime: (rt) => void ((rt.sandboxes[0]!.state = 'notready'), (rt.sandboxes[0]!.attempt = 2), (rt.containers = [])),
      want: ['KillPod', 'CreateSandbox attempt=3', ...allRegular(0)],
    },
  ]
  it.each(rows)('$name', (row) => check(row))

  it('computing twice over the same state gives the same empty plan', () => {
    const row: Row = {name: 'twice', want: []}
    const first = compute(row)
    const second = compute(row)
    expect(first.actions).toEqual([])
    expect(second).toEqual(first)
    expect(first.sandboxId).toBe('sandbox-1')
  })

  it('names the pod and uses no sandbox id when a new sandbox is created', () => {
    const plan = compute({name: 'new', noRuntime: true, want: []})
    expect(plan).toMatchObject({uid: 'uid-1', name: 'web-node1', namespace: 'default', sandboxId: ''})
  })

  it('reasons say why in words', () => {
    const changedSandbox = compute({name: 'x', pod: (sp) => void (sp.pod.spec.hostNetwork = true), want: []})
    expect(changedSandbox.actions.find((a) => a.type === 'CreateSandbox')?.reason).toMatch(/pod-level settings changed/)
    const crashed = compute({name: 'x', runtime: (rt) => setContainer(rt, 'foo2', exited(1)), want: []})
    expect(crashed.actions[0]?.reason).toBe('container "foo2" exited with code 1 and restartPolicy is Always')
    const changed = compute({name: 'x', pod: (sp) => void (sp.pod.spec.containers[1]!.args = ['x']), want: []})
    expect(changed.actions[0]?.reason).toMatch(/^container "foo2"'s spec changed: hash /)
    const newImage = compute({name: 'x', pod: (sp) => void (sp.pod.spec.containers[1]!.image = 'busybox:2'), want: []})
    const kill = newImage.actions.find((a) => a.type === 'KillContainer')
    expect(kill?.reason).toMatch(/^container "foo2"'s spec changed: image \S+ → busybox:2$/)
    expect(compute({name: 'x', noRuntime: true, want: []}).actions[0]?.reason).toBe('new pod: no sandbox')
  })
})

describe('computePodActions: run-to-completion pods that finished', () => {
  const allExited = (codes: [number, number, number]) => (rt: RuntimePod) =>
    ['foo1', 'foo2', 'foo3'].forEach((n, i) => setContainer(rt, n, exited(codes[i]!)))
  const dead = (rt: RuntimePod): void => void (rt.sandboxes[0]!.state = 'notready')
  const rows: Row[] = [
    {name: 'Never, all exited, sandbox still ready → stop the pod, terminal', pod: never, runtime: allExited([0, 1, 0]), want: ['KillPod'], terminal: true},
    {
      name: 'Never, all exited, sandbox stopped → nothing, terminal (Failed)',
      pod: never,
      runtime: (rt) => void (allExited([0, 1, 0])(rt), dead(rt)),
      want: [],
      terminal: true,
    },
    {
      name: 'Never, all exited 0, sandbox stopped → nothing, terminal (Succeeded)',
      pod: never,
      runtime: (rt) => void (allExited([0, 0, 0])(rt), dead(rt)),
      want: [],
      terminal: true,
    },
    {name: 'OnFailure, all exited 0, sandbox ready → stop the pod, terminal', pod: onFailure, runtime: allExited([0, 0, 0]), want: ['KillPod'], terminal: true},
    {
      name: 'OnFailure, all exited 0, sandbox stopped → nothing, terminal',
      pod: onFailure,
      runtime: (rt) => void (allExited([0, 0, 0])(rt), dead(rt)),
      want: [],
      terminal: true,
    },
    {
      name: 'OnFailure, one exited 1, sandbox stopped → new sandbox for that one',
      pod: onFailure,
      runtime: (rt) => void (allExited([0, 1, 0])(rt), dead(rt)),
      want: ['KillPod', 'CreateSandbox attempt=1', 'Start regular foo2 restart=1'],
    },
    {
      name: 'Never, sandbox died while containers ran → not run again, terminal',
      pod: never,
      runtime: (rt) => void (dead(rt), setContainer(rt, 'foo1', exited(137)), setContainer(rt, 'foo2', exited(137)), setContainer(rt, 'foo3', exited(137))),
      want: [],
      terminal: true,
    },
    {name: 'Always, all exited → restart all, never terminal', runtime: allExited([0, 1, 0]), want: allRegular(1)},
    {
      name: 'activeDeadlineSeconds passed (started 10m ago, deadline 60s) → stop the pod, terminal',
      pod: (sp) => void (sp.pod.spec.activeDeadlineSeconds = 60),
      want: ['KillPod'],
      terminal: true,
    },
    {name: 'activeDeadlineSeconds not yet passed → nothing', pod: (sp) => void (sp.pod.spec.activeDeadlineSeconds = 3600), want: []},
    {
      name: 'activeDeadlineSeconds passed and already stopped → nothing more, terminal',
      pod: (sp) => void (sp.pod.spec.activeDeadlineSeconds = 60),
      runtime: (rt) => void (allExited([137, 137, 137])(rt), dead(rt)),
      want: [],
      terminal: true,
    },
    {
      name: 'Never, finished, then foo2 edited → foo2 runs again (a changed manifest is a new pod)',
      pod: (sp) => void (never(sp), (sp.pod.spec.containers[1]!.env = [{name: 'EDITED', value: '1'}])),
      runtime: allExited([0, 1, 0]),
      want: ['Start regular foo2 restart=1'],
    },
    {
      name: 'OnFailure, succeeded, then foo3 edited → foo3 runs again',
      pod: (sp) => void (onFailure(sp), (sp.pod.spec.containers[2]!.env = [{name: 'EDITED', value: '1'}])),
      runtime: allExited([0, 0, 0]),
      want: ['Start regular foo3 restart=1'],
    },
    {
      name: 'Never, sandbox died, then foo1 edited → a new sandbox runs the pod again',
      pod: (sp) => void (never(sp), (sp.pod.spec.containers[0]!.env = [{name: 'EDITED', value: '1'}])),
      runtime: (rt) => void (allExited([0, 1, 0])(rt), dead(rt)),
      want: ['KillPod', 'CreateSandbox attempt=1', 'Start regular foo1 restart=1', 'Start regular foo2 restart=1', 'Start regular foo3 restart=1'],
    },
  ]
  it.each(rows)('$name', (row) => check(row))
})

/**
 * The pod after its sandbox died and was recreated: the old sandbox (sandbox-1) is kept with the
 * containers that died in it, exited with these codes after restart count 2, until GC; the new
 * one (sandbox-2) is ready and empty unless a row puts containers in it.
 */
const recreated = (codes: [number, number, number]) => (rt: RuntimePod, sp: StaticPod): void => {
  for (const [i, n] of ['foo1', 'foo2', 'foo3'].entries()) setContainer(rt, n, exited(codes[i]!, {restartCount: 2}))
  rt.sandboxes = [sandbox(sp, {id: 'sandbox-2', attempt: 1, createdAt: T0 + 10_000, ip: '10.0.0.2'}), sandbox(sp, {state: 'notready'})]
}
/** `name` runs again in the new sandbox (restart count 3). */
const runsInNew = (rt: RuntimePod, sp: StaticPod, name: string): void =>
  void rt.containers.unshift(runtimeContainer(sp, name, {id: `id-${name}-2`, sandboxId: 'sandbox-2', restartCount: 3, createdAt: T0 + 11_000}))

describe('computePodActions: the history an old sandbox keeps until GC', () => {
  const rows: Row[] = [
    {
      name: 'Always: new sandbox ready, the containers died in the old one → started in the new one, restart counts continue',
      runtime: recreated([137, 137, 137]),
      want: allRegular(3),
    },
    {
      name: 'Always: running again in the new sandbox, the dead ones kept in the old → nothing to do',
      runtime: (rt, sp) => void (recreated([137, 137, 137])(rt, sp), ['foo1', 'foo2', 'foo3'].forEach((n) => runsInNew(rt, sp, n))),
      want: [],
    },
    {
      name: 'OnFailure: foo2 succeeded in the old sandbox → not run again in the new one',
      pod: onFailure,
      runtime: recreated([137, 0, 137]),
      want: ['Start regular foo1 restart=3', 'Start regular foo3 restart=3'],
    },
    {
      name: 'OnFailure: the others run in the new sandbox, foo2 succeeded in the old → nothing to do',
      pod: onFailure,
      runtime: (rt, sp) => void (recreated([137, 0, 137])(rt, sp), runsInNew(rt, sp, 'foo1'), runsInNew(rt, sp, 'foo3')),
      want: [],
    },
    {
      name: 'OnFailure: every container succeeded in the old sandbox → the empty new one is stopped, terminal',
      pod: onFailure,
      runtime: recreated([0, 0, 0]),
      want: ['KillPod'],
      terminal: true,
    },
    {
      name: 'OnFailure: the new sandbox died too, foo2 had succeeded in the first → a third sandbox without foo2',
      pod: onFailure,
      runtime: (rt, sp) =>
        void (recreated([137, 0, 137])(rt, sp),
        runsInNew(rt, sp, 'foo1'),
        runsInNew(rt, sp, 'foo3'),
        ['id-foo1-2', 'id-foo3-2'].forEach((id) => (rt.containers = rt.containers.map((c) => (c.id === id ? {...c, ...exited(137)} : c)))),
        (rt.sandboxes[0]!.state = 'notready')),
      want: ['KillPod', 'CreateSandbox attempt=2', 'Start regular foo1 restart=4', 'Start regular foo3 restart=4'],
    },
    {
      name: 'Never: foo1 runs in the new sandbox (an edit ran it again) → the others keep their verdict',
      pod: never,
      runtime: (rt, sp) => void (recreated([0, 1, 137])(rt, sp), runsInNew(rt, sp, 'foo1')),
      want: [],
    },
    {
      name: 'Never: the sandbox died, an older dead one kept too → not run again, terminal',
      pod: never,
      runtime: (rt, sp) => void (recreated([0, 1, 137])(rt, sp), (rt.sandboxes[0]!.state = 'notready')),
      want: [],
      terminal: true,
    },
  ]
  it.each(rows)('$name', (row) => check(row))
})

/** Base for init containers: three init containers that all exited 0, no regular container yet. */
function initPod(): StaticPod {
  const sp = basePod()
  sp.pod.spec.initContainers = [container('init1', 'busybox:1.36'), container('init2', 'busybox:1.36'), container('init3', 'busybox:1.36')]
  return sp
}
const initsDone = (rt: RuntimePod, sp: StaticPod): void => {
  rt.containers = ['init1', 'init2', 'init3'].map((n, i) => runtimeContainer(sp, n, {...exited(0), createdAt: T0 + 100 * (i + 1)}))
}

describe('computePodActions: init containers', () => {
  const rows: Row[] = [
    {name: 'all init containers done → start the regular containers', runtime: initsDone, want: allRegular(0)},
    {name: 'no status at all → start only the first init container', runtime: (rt) => void (rt.containers = []), want: ['Start init init1 restart=0']},
    {
      name: 'first init succeeded → start the next one',
      runtime: (rt, sp) => void (rt.containers = [runtimeContainer(sp, 'init1', exited(0))]),
      want: ['Start init init2 restart=0'],
    },
    {
      name: 'an init container running → wait',
      runtime: (rt, sp) => void (initsDone(rt, sp), setContainer(rt, 'init2', {state: 'running'}), dropContainer(rt, 'init3')),
      want: [],
    },
    {name: 'last init running → wait', runtime: (rt, sp) => void (initsDone(rt, sp), setContainer(rt, 'init3', {state: 'running'})), want: []},
    {
      name: 'only the last init status left, running → wait (earlier ones not re-run)',
      runtime: (rt, sp) => void (rt.containers = [runtimeContainer(sp, 'init3')]),
      want: [],
    },
    {
      name: 'sandbox not ready → kill pod, new sandbox, first init container',
      runtime: (rt, sp) => void (initsDone(rt, sp), (rt.sandboxes[0]!.state = 'notready')),
      want: ['KillPod', 'CreateSandbox attempt=1', 'Start init init1 restart=1'],
    },
    {
      name: 'last init failed under Always → restart it',
      runtime: (rt, sp) => void (initsDone(rt, sp), setContainer(rt, 'init3', exited(137))),
      want: ['Start init init3 restart=1'],
    },
    {
      name: 'last init failed under OnFailure → restart it',
      pod: onFailure,
      runtime: (rt, sp) => void (initsDone(rt, sp), setContainer(rt, 'init3', exited(1))),
      want: ['Start init init3 restart=1'],
    },
    {
      name: 'init failed under Never → stop the pod, terminal (Failed)',
      pod: never,
      runtime: (rt, sp) => void (initsDone(rt, sp), setContainer(rt, 'init3', exited(1))),
      want: ['KillPod'],
      terminal: true,
    },
    {
      name: 'init OOM-killed under Never → failed too',
      pod: never,
      runtime: (rt, sp) => void (initsDone(rt, sp), setContainer(rt, 'init3', exited(0, {reason: 'OOMKilled'}))),
      want: ['KillPod'],
      terminal: true,
    },
    {
      name: 'init failed under Never with the sandbox already stopped → nothing, terminal',
      pod: never,
      runtime: (rt, sp) => void (initsDone(rt, sp), setContainer(rt, 'init3', exited(1)), (rt.sandboxes[0]!.state = 'notready')),
      want: [],
      terminal: true,
    },
    {
      name: 'last init unknown under Always → kill and restart it',
      runtime: (rt, sp) => void (initsDone(rt, sp), setContainer(rt, 'init3', {state: 'unknown'})),
      want: ['KillContainer init3', 'Start init init3 restart=1'],
    },
    {
      name: 'last init unknown under Never → stop the pod, terminal',
      pod: never,
      runtime: (rt, sp) => void (initsDone(rt, sp), setContainer(rt, 'init3', {state: 'unknown'})),
      want: ['KillPod'],
      terminal: true,
    },
    {
      name: 'last init stuck in created → kill and start it again',
      runtime: (rt, sp) => void (initsDone(rt, sp), setContainer(rt, 'init3', {state: 'created'})),
      want: ['KillContainer init3', 'Start init init3 restart=1'],
    },
    {
      name: 'new sandbox: init containers that ran in the previous sandbox do not count → first init again',
      runtime: (rt, sp) =>
        void (initsDone(rt, sp),
        rt.containers.forEach((c) => void ((c.sandboxId = 'sandbox-0'), (c.restartCount = 0))),
        (rt.sandboxes = [sandbox(sp, {attempt: 1})])),
      want: ['Start init init1 restart=1'],
    },
    {
      name: 'regular containers running and init statuses gone → initialized, nothing to do',
      want: [],
    },
  ]
  it.each(rows)('$name', (row) => check(row, initPod))
})

/** Base for sidecars: three restartable init containers, none running yet unless a row says so. */
function sidecarPod(): StaticPod {
  const sp = basePod()
  sp.pod.spec.initContainers = ['sc1', 'sc2', 'sc3'].map((n) => container(n, 'busybox:1.36', {restartPolicy: 'Always'}))
  return sp
}
const sidecarsRunning = (rt: RuntimePod, sp: StaticPod): void => {
  rt.containers = ['sc1', 'sc2', 'sc3'].map((n) => runtimeContainer(sp, n))
}

describe('computePodActions: sidecars (restartable init containers)', () => {
  const rows: Row[] = [
    {name: 'all sidecars started → start the regular containers', runtime: sidecarsRunning, want: allRegular(0)},
    {name: 'no status → start only the first sidecar', runtime: (rt) => void (rt.containers = []), want: ['Start sidecar sc1 restart=0']},
    {
      name: 'first sidecar running → start the second one, in order',
      runtime: (rt, sp) => void (rt.containers = [runtimeContainer(sp, 'sc1')]),
      want: ['Start sidecar sc2 restart=0'],
    },
    {
      name: 'sidecar with a startup probe and no result yet → wait',
      pod: (sp) => void (sp.pod.spec.initContainers![1]!.startupProbe = {exec: {command: ['true']}}),
      runtime: (rt, sp) => void (rt.containers = [runtimeContainer(sp, 'sc1'), runtimeContainer(sp, 'sc2')]),
      want: [],
    },
    {
      name: 'sidecar startup probe passed → next sidecar',
      pod: (sp) => void (sp.pod.spec.initContainers![1]!.startupProbe = {exec: {command: ['true']}}),
      runtime: (rt, sp) => void (rt.containers = [runtimeContainer(sp, 'sc1'), runtimeContainer(sp, 'sc2')]),
      probes: {sc2: {startup: 'Success'}},
      want: ['Start sidecar sc3 restart=0'],
    },
    {
      name: 'sidecar startup probe failed → kill and restart it',
      pod: (sp) => void (sp.pod.spec.initContainers![2]!.startupProbe = {exec: {command: ['true']}}),
      runtime: sidecarsRunning,
      probes: {sc3: {startup: 'Failure'}},
      want: ['KillContainer sc3', 'Start sidecar sc3 restart=1'],
    },
    {
      name: 'sidecar liveness failure → restart it, regular containers still start',
      pod: (sp) => void (sp.pod.spec.initContainers![2]!.livenessProbe = {exec: {command: ['true']}}),
      runtime: sidecarsRunning,
      probes: {sc3: {liveness: 'Failure'}},
      want: ['KillContainer sc3', 'Start sidecar sc3 restart=1', ...allRegular(0)],
    },
    {
      name: 'sidecar spec changed → replace it, regular containers still start',
      pod: (sp) => void (sp.pod.spec.initContainers![2]!.image = 'busybox:1.37'),
      runtime: sidecarsRunning,
      images: [...PRESENT, 'docker.io/library/busybox:1.37'],
      want: ['KillContainer sc3', 'Start sidecar sc3 restart=1', ...allRegular(0)],
    },
    {
      name: 'first sidecar exited while pod runs → restart it alone',
      runtime: (rt, sp) => void (rt.containers = [...rt.containers, runtimeContainer(sp, 'sc1', exited(0)), runtimeContainer(sp, 'sc2'), runtimeContainer(sp, 'sc3')]),
      want: ['Start sidecar sc1 restart=1'],
    },
    {
      name: 'two sidecars exited before the pod ran → restart both',
      runtime: (rt, sp) => void (sidecarsRunning(rt, sp), setContainer(rt, 'sc1', exited(0)), setContainer(rt, 'sc3', exited(1))),
      want: ['Start sidecar sc1 restart=1', 'Start sidecar sc3 restart=1'],
    },
    {
      name: 'Never: sidecar exited 137 → restarted anyway',
      pod: never,
      runtime: (rt, sp) => void (rt.containers.push(runtimeContainer(sp, 'sc1'), runtimeContainer(sp, 'sc2'), runtimeContainer(sp, 'sc3', exited(137)))),
      want: ['Start sidecar sc3 restart=1'],
    },
    {
      name: 'Never: all regular containers exited → stop the pod, sidecars not restarted, terminal',
      pod: never,
      runtime: (rt, sp) =>
        void (['foo1', 'foo2', 'foo3'].forEach((n) => setContainer(rt, n, exited(0))),
        rt.containers.push(runtimeContainer(sp, 'sc1', exited(137)), runtimeContainer(sp, 'sc2'), runtimeContainer(sp, 'sc3'))),
      want: ['KillPod'],
      terminal: true,
    },
  ]
  it.each(rows)('$name', (row) => check(row, sidecarPod))
})

/**
 * Container restart rules (KEP-5307): foo2 carries its own restartPolicy and rules, set in the
 * base so the runtime's hashes match; the pod's restartPolicy is the row's. Like the kubelet's
 * TestComputePodActionsWithContainerRestartRules, one exit per row.
 */
type RulesPod = {pod: 'Always' | 'OnFailure' | 'Never'; own?: 'Always' | 'OnFailure' | 'Never'; rules?: Array<['In' | 'NotIn', number[]]>; init?: boolean}
function rulesPod(r: RulesPod): Base {
  return () => {
    const sp = basePod()
    sp.pod.spec.restartPolicy = r.pod
    const target = r.init ? container('init1', 'busybox:1.36') : sp.pod.spec.containers[1]!
    if (r.own !== undefined) target.restartPolicy = r.own
    if (r.rules !== undefined) target.restartPolicyRules = r.rules.map(([operator, values]) => ({action: 'Restart', exitCodes: {operator, values}}))
    if (r.init) sp.pod.spec.initContainers = [target]
    return sp
  }
}
const foo2Exits = (code: number) => (rt: RuntimePod): void => setContainer(rt, 'foo2', exited(code))
const restartFoo2 = ['Start regular foo2 restart=1']
const allExited = (codes: [number, number, number]) => (rt: RuntimePod): void =>
  void ['foo1', 'foo2', 'foo3'].forEach((n, i) => setContainer(rt, n, exited(codes[i]!)))
const dead = (rt: RuntimePod): void => void (rt.sandboxes[0]!.state = 'notready')
const initExits = (code: number) => (rt: RuntimePod, sp: StaticPod): void => void (rt.containers = [runtimeContainer(sp, 'init1', exited(code))])

describe('computePodActions: container restartPolicy and restartPolicyRules', () => {
  const rows: Array<Row & {base: RulesPod; reason?: string}> = [
    {name: 'pod Never, own Never, rule In [42]: exit 42 → restart', base: {pod: 'Never', own: 'Never', rules: [['In', [42]]]}, runtime: foo2Exits(42), want: restartFoo2,
      reason: 'container "foo2" exited with code 42 and restartPolicyRules[0] (exit code In [42]) restarts it'},
    {name: 'pod Never, own Never, rule In [42]: exit 1 → stays stopped', base: {pod: 'Never', own: 'Never', rules: [['In', [42]]]}, runtime: foo2Exits(1), want: []},
    {name: 'pod Never, own Never, rule In [42]: exit 0 → stays stopped', base: {pod: 'Never', own: 'Never', rules: [['In', [42]]]}, runtime: foo2Exits(0), want: []},
    {name: 'pod Never, own Never, rule NotIn [0]: exit 3 → restart', base: {pod: 'Never', own: 'Never', rules: [['NotIn', [0]]]}, runtime: foo2Exits(3), want: restartFoo2},
    {name: 'pod Never, own Never, rule NotIn [0]: exit 0 → stays stopped', base: {pod: 'Never', own: 'Never', rules: [['NotIn', [0]]]}, runtime: foo2Exits(0), want: []},
    {name: 'rules in order: the second matches → restart, named', base: {pod: 'Never', own: 'Never', rules: [['In', [1, 2]], ['In', [7, 42]]]}, runtime: foo2Exits(42), want: restartFoo2,
      reason: 'container "foo2" exited with code 42 and restartPolicyRules[1] (exit code In [7, 42]) restarts it'},
    {name: 'no rule matches → own restartPolicy OnFailure decides: exit 1 restarts', base: {pod: 'Never', own: 'OnFailure', rules: [['In', [42]]]}, runtime: foo2Exits(1), want: restartFoo2,
      reason: 'container "foo2" exited with code 1 and its restartPolicy is OnFailure'},
    {name: 'no rule matches → own restartPolicy OnFailure decides: exit 0 stays stopped', base: {pod: 'Never', own: 'OnFailure', rules: [['In', [42]]]}, runtime: foo2Exits(0), want: []},
    {name: 'pod Always, own Never: exit 1 → stays stopped (the container’s policy wins)', base: {pod: 'Always', own: 'Never'}, runtime: foo2Exits(1), want: []},
    {name: 'pod Always, own Never, rule In [42]: exit 42 → restart', base: {pod: 'Always', own: 'Never', rules: [['In', [42]]]}, runtime: foo2Exits(42), want: restartFoo2},
    {name: 'pod Always, own OnFailure: exit 0 → stays stopped', base: {pod: 'Always', own: 'OnFailure'}, runtime: foo2Exits(0), want: []},
    {name: 'pod OnFailure, own Never, rule In [42]: exit 3 → stays stopped', base: {pod: 'OnFailure', own: 'Never', rules: [['In', [42]]]}, runtime: foo2Exits(3), want: []},
    {name: 'pod Never, own Always: exit 0 → restart', base: {pod: 'Never', own: 'Always'}, runtime: foo2Exits(0), want: restartFoo2},
    {name: 'pod Never, own OnFailure: exit 2 → restart', base: {pod: 'Never', own: 'OnFailure'}, runtime: foo2Exits(2), want: restartFoo2},
    {name: 'pod Always, no own policy: exit 0 → restart (unchanged)', base: {pod: 'Always'}, runtime: foo2Exits(0), want: restartFoo2},
    {
      name: 'pod Never, own OnFailure: liveness failure → kill and start again',
      base: {pod: 'Never', own: 'OnFailure'},
      probes: {foo2: {liveness: 'Failure'}},
      want: ['KillContainer foo2', 'Start regular foo2 restart=1'],
    },
    {
      name: 'pod Never, own Never, rule In [137]: liveness failure → kill and start again',
      base: {pod: 'Never', own: 'Never', rules: [['In', [137]]]},
      probes: {foo2: {liveness: 'Failure'}},
      want: ['KillContainer foo2', 'Start regular foo2 restart=1'],
    },
    {name: 'pod Always, own Never: liveness failure → kill only', base: {pod: 'Always', own: 'Never'}, probes: {foo2: {liveness: 'Failure'}}, want: ['KillContainer foo2']},
    {
      name: 'pod Always, own Never: every container stopped, foo2 for good, others restart',
      base: {pod: 'Always', own: 'Never'},
      runtime: allExited([0, 1, 0]),
      want: ['Start regular foo1 restart=1', 'Start regular foo3 restart=1'],
    },
    {
      name: 'pod Never, own Never, rule In [42]: all stopped, no rule matches → stop the pod, terminal',
      base: {pod: 'Never', own: 'Never', rules: [['In', [42]]]},
      runtime: (rt) => void (allExited([0, 1, 0])(rt)),
      want: ['KillPod'],
      terminal: true,
    },
    {
      name: 'pod Never, own OnFailure: sandbox died, foo2 failed → new sandbox runs foo2 alone',
      base: {pod: 'Never', own: 'OnFailure'},
      runtime: (rt) => void (allExited([0, 1, 0])(rt), dead(rt)),
      want: ['KillPod', 'CreateSandbox attempt=1', 'Start regular foo2 restart=1'],
    },
    {
      name: 'pod Never, own OnFailure: sandbox died, foo2 succeeded → not run again, terminal',
      base: {pod: 'Never', own: 'OnFailure'},
      runtime: (rt) => void (allExited([0, 0, 0])(rt), dead(rt)),
      want: [],
      terminal: true,
    },
    // Regular init containers: a failed one runs again when its rules or own policy say so.
    {name: 'init, pod Never, own Never, rule In [42]: exit 42 → run it again', base: {pod: 'Never', own: 'Never', rules: [['In', [42]]], init: true},
      runtime: initExits(42), want: ['Start init init1 restart=1']},
    {name: 'init, pod Never, own Never, rule In [42]: exit 1 → the pod fails', base: {pod: 'Never', own: 'Never', rules: [['In', [42]]], init: true},
      runtime: initExits(1), want: ['KillPod'], terminal: true},
    {name: 'init, pod Always, own Never: exit 1 → the pod fails', base: {pod: 'Always', own: 'Never', init: true}, runtime: initExits(1), want: ['KillPod'], terminal: true},
    {name: 'init, pod Never, own OnFailure: exit 1 → run it again', base: {pod: 'Never', own: 'OnFailure', init: true}, runtime: initExits(1), want: ['Start init init1 restart=1']},
    {name: 'init, pod Never, own OnFailure: unknown state → run it again', base: {pod: 'Never', own: 'OnFailure', init: true},
      runtime: (rt, sp) => void (rt.containers = [runtimeContainer(sp, 'init1', {state: 'unknown'})]), want: ['KillContainer init1', 'Start init init1 restart=1']},
    {name: 'init, pod Never, own Never, rule In [42]: unknown state → the pod fails (no exit code to match)', base: {pod: 'Never', own: 'Never', rules: [['In', [42]]], init: true},
      runtime: (rt, sp) => void (rt.containers = [runtimeContainer(sp, 'init1', {state: 'unknown'})]), want: ['KillPod'], terminal: true},
  ]
  it.each(rows)('$name', (row) => {
    check(row, rulesPod(row.base))
    if (row.reason !== undefined) expect(compute(row, rulesPod(row.base)).actions.at(-1)?.reason).toBe(row.reason)
  })
})

describe('backOffMessage', () => {
  it.each<[BackOffEntry['reason'], string]>([
    ['CrashLoopBackOff', 'back-off 20s restarting failed container=foo2 pod=web-node1_default(uid-1)'],
    ['ImagePullBackOff', 'Back-off pulling image "alpine:3.20"'],
  ])('%s: the kubelet’s words', (reason, expected) => {
    const entry: BackOffEntry = {until: NOW + 1, reason, message: reason === 'CrashLoopBackOff' ? 'back-off 20s restarting failed container' : 'back-off 20s pulling image'}
    expect(backOffMessage(entry, 'foo2', 'alpine:3.20', basePod().pod)).toBe(expected)
  })
})

/** Upgrades as kubeadm and monitoring see them: an edit is a new instance (issue: upgrades). */
describe('computePodActions: an edit is a new instance', () => {
  const CONFIG = 'kubernetes.io/config.hash'
  /** The desired pod is version `now` of the manifest; the runtime's containers ran version `ran`. */
  const versions = (ran: string, now: string) => ({
    pod: (sp: StaticPod): void => void (sp.pod.metadata.annotations = {...sp.pod.metadata.annotations, [CONFIG]: now}),
    runtime: (rt: RuntimePod): void => void (rt.containers = rt.containers.map((c) => ({...c, configHash: ran}))),
  })
  const pullBackOff = (image: string, until = NOW + 5000): Map<string, BackOffEntry> => new Map([[image, {until, reason: 'ImagePullBackOff', message: 'back-off 10s pulling image'}]])
  const computeWith = (row: Row, extra: {pullBackOff?: Map<string, BackOffEntry> | undefined}): PodActions => {
    const built = basePod()
    const rt = baseRuntime(built)
    row.runtime?.(rt, built)
    const sp = withLiveFacts(structuredClone(built))
    row.pod?.(sp)
    return computePodActions({sp, runtime: rt, images: row.images ? new Set(row.images) : PRESENT, probes: new Map(), backOff: new Map(Object.entries(row.backOff ?? {})), pullBackOff: extra.pullBackOff, now: NOW})
  }
  const editImage = (sp: StaticPod): void => void (sp.pod.spec.containers[1]!.image = 'localhost:5000/missing:2')

  it.each<Row & {pullBackOff?: Map<string, BackOffEntry>}>([
    {
      name: 'an edited image in pull back-off: the start waits in ImagePullBackOff and the old container keeps serving (no kill)',
      pod: editImage,
      images: [],
      pullBackOff: pullBackOff('localhost:5000/missing:2'),
      want: [],
      blocked: ['foo2 ImagePullBackOff'],
    },
    {
      name: 'the same edit once the pull back-off is over: pull, then replace (the pull comes first, so a failure still keeps it)',
      pod: editImage,
      images: [],
      pullBackOff: pullBackOff('localhost:5000/missing:2', NOW - 1),
      want: ['PullImage localhost:5000/missing:2 for foo2', 'KillContainer foo2', 'Start regular foo2 restart=1'],
    },
    {
      name: 'a pull back-off blocks only a start that must pull: an image present under IfNotPresent starts',
      pod: (sp) => void ((sp.pod.spec.containers[1]!.image = 'busybox:2'), (sp.pod.spec.containers[1]!.imagePullPolicy = 'IfNotPresent')),
      images: ['docker.io/library/busybox:2', 'docker.io/library/busybox:1.36', 'docker.io/library/alpine:3.20', 'docker.io/library/nginx:1.27'],
      pullBackOff: pullBackOff('busybox:2'),
      want: ['KillContainer foo2', 'Start regular foo2 restart=1'],
    },
    {
      name: 'a liveness failure still kills while the restart is backed off (only an edit keeps the old one)',
      runtime: (rt) => void setContainer(rt, 'foo2', {}),
      backOff: {foo2: {until: NOW + 5000, reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container'}},
      want: [],
    },
    {
      name: 'Never, finished, annotation bump (new config hash, same containers) → every container runs again',
      pod: (sp) => void (never(sp), versions('v1', 'v2').pod(sp)),
      runtime: (rt) => void (allExited([0, 1, 0])(rt), versions('v1', 'v2').runtime(rt)),
      want: allRegular(1),
    },
    {
      name: 'OnFailure, all succeeded, annotation bump → every container runs again, the unchanged siblings too',
      pod: (sp) => void (onFailure(sp), versions('v1', 'v2').pod(sp)),
      runtime: (rt) => void (allExited([0, 0, 0])(rt), versions('v1', 'v2').runtime(rt)),
      want: allRegular(1),
    },
    {
      name: 'Never, finished, same config hash → only the sandbox is stopped (finished for good)',
      pod: (sp) => void (never(sp), versions('v1', 'v1').pod(sp)),
      runtime: (rt) => void (allExited([0, 1, 0])(rt), versions('v1', 'v1').runtime(rt)),
      want: ['KillPod'],
      terminal: true,
    },
    {
      name: 'Never, sandbox died after finishing, annotation bump → a new sandbox runs every container',
      pod: (sp) => void (never(sp), versions('v1', 'v2').pod(sp)),
      runtime: (rt) => void (allExited([0, 1, 0])(rt), dead(rt), versions('v1', 'v2').runtime(rt)),
      want: ['KillPod', 'CreateSandbox attempt=1', ...allRegular(1)],
    },
    {
      name: 'Always, running, annotation bump → nothing restarts (only the definition of a container does)',
      pod: versions('v1', 'v2').pod,
      runtime: versions('v1', 'v2').runtime,
      want: [],
    },
  ])('$name', (row) => {
    const plan = computeWith(row, {pullBackOff: row.pullBackOff})
    expect(plan.actions.map(summary)).toEqual(row.want)
    expect(plan.blocked.map((b) => `${b.name} ${b.reason}`)).toEqual(row.blocked ?? [])
    expect(plan.terminal).toBe(row.terminal ?? false)
  })

  const bases = (plan: PodActions): Record<string, number | undefined> =>
    Object.fromEntries(plan.actions.flatMap((a) => (a.type === 'StartContainer' ? [[a.name, a.restartBase]] : [])))

  it('restart counts start again at 0 for an edited definition, and carry on for a crash of the same one', () => {
    // foo2 crashed (restartCount 3 of a definition first run at 1); foo3 was edited.
    const plan = computeWith(
      {
        name: 'bases',
        pod: (sp) => void (sp.pod.spec.containers[2]!.env = [{name: 'EDITED', value: '1'}]),
        runtime: (rt) => void (setContainer(rt, 'foo2', {...exited(1), restartCount: 3, restartBase: 1}), setContainer(rt, 'foo3', {restartCount: 5, restartBase: 2})),
        want: [],
      },
      {},
    )
    expect(plan.actions.map(summary)).toEqual(['KillContainer foo3', 'Start regular foo2 restart=4', 'Start regular foo3 restart=6'])
    // The CRI attempt keeps increasing (names and log files never repeat); the shown count restarts.
    expect(bases(plan)).toEqual({foo2: 1, foo3: 6})
  })

  it('a finished container run again for a manifest edit counts its restarts from 0', () => {
    const plan = computeWith({name: 'rerun', pod: (sp) => void (never(sp), versions('v1', 'v2').pod(sp)), runtime: (rt) => void (allExited([0, 0, 0])(rt), versions('v1', 'v2').runtime(rt)), want: []}, {})
    expect(bases(plan)).toEqual({foo1: 1, foo2: 1, foo3: 1})
  })
})

describe('computePodActions: activeDeadlineSeconds counts from the instance start (status.startTime)', () => {
  const withDeadline = (seconds: number) => (sp: StaticPod): void => void (sp.pod.spec.activeDeadlineSeconds = seconds)
  const plan = (seconds: number, startTime: number | undefined): PodActions => {
    const sp = basePod()
    withDeadline(seconds)(sp)
    return computePodActions({sp, runtime: baseRuntime(basePod()), images: PRESENT, probes: new Map(), backOff: new Map(), now: NOW, startTime})
  }
  it.each<{name: string; seconds: number; startTime: number | undefined; want: string[]}>([
    // The sandbox is 10 minutes old: counted from it, 60 s would have passed long ago.
    {name: 'an edit 30 s ago started a new instance: 60 s not yet passed → nothing', seconds: 60, startTime: NOW - 30_000, want: []},
    {name: 'the instance started 61 s ago → stop the pod', seconds: 60, startTime: NOW - 61_000, want: ['KillPod']},
    {name: 'no instance start known (a reader of the runtime alone) → the first sandbox counts', seconds: 60, startTime: undefined, want: ['KillPod']},
  ])('$name', ({seconds, startTime, want}) => {
    expect(plan(seconds, startTime).actions.map(summary)).toEqual(want)
  })
})

/**
 * RestartAllContainers (KEP-5532): foo2 (own policy Never) restarts the whole pod in place when it
 * exits 42; the pod's policy is Never. Old instances exited at T0+5s; a new run's containers are
 * created at T0+7s. With `inits`, the pod has a regular init container and a sidecar first.
 */
function restartAllPod(inits = false): Base {
  return () => {
    const sp = basePod()
    sp.pod.spec.restartPolicy = 'Never'
    const foo2 = sp.pod.spec.containers[1]!
    foo2.restartPolicy = 'Never'
    foo2.restartPolicyRules = [{action: 'RestartAllContainers', exitCodes: {operator: 'In', values: [42]}}]
    if (inits) {
      sp.pod.spec.initContainers = [
        container('init1', 'busybox:1.36'),
        container('sc', 'busybox:1.36', {restartPolicy: 'Always', restartPolicyRules: [{action: 'RestartAllContainers', exitCodes: {operator: 'In', values: [88]}}]}),
      ]
    }
    return sp
  }
}
const NEW_RUN = T0 + 7000
/** The earlier run with its init container done and its sidecar running, then the regular containers. */
const initsRan = (rt: RuntimePod, sp: StaticPod): void =>
  void (rt.containers = [runtimeContainer(sp, 'init1', exited(0, {finishedAt: T0 + 500, createdAt: T0})), runtimeContainer(sp, 'sc', {createdAt: T0}), ...rt.containers])
/** A container of the new run, created after the exit that restarted everything. */
const again = (name: string, extra: Partial<RuntimePod['containers'][number]> = {}) => (rt: RuntimePod, sp: StaticPod): void =>
  void rt.containers.unshift(runtimeContainer(sp, name, {id: `id-${name}-2`, createdAt: NEW_RUN, startedAt: NEW_RUN, restartCount: 1, ...extra}))
/** What the restart stopped of the earlier run. */
const oldStopped = (rt: RuntimePod): void => void rt.containers.forEach((c) => c.state === 'running' && Object.assign(c, exited(137, {finishedAt: T0 + 6000})))
const steps = (...fns: Array<(rt: RuntimePod, sp: StaticPod) => void>) => (rt: RuntimePod, sp: StaticPod): void => fns.forEach((f) => f(rt, sp))

describe('computePodActions: restartPolicyRules RestartAllContainers', () => {
  const rows: Array<Row & {inits?: boolean; reason?: string}> = [
    {
      name: 'foo2 exits 42 → the others stop, and every container starts again in the same sandbox',
      runtime: foo2Exits(42),
      want: ['KillContainer foo1', 'KillContainer foo3', ...allRegular(1)],
      reason: 'container "foo1" has not been started yet: container "foo2" exited with code 42 and its restartPolicyRules[0] restarts all containers',
    },
    {name: 'foo2 exits 1: no rule matches, its policy Never keeps it stopped; the others run on', runtime: foo2Exits(1), want: []},
    {
      name: 'succeeded containers start again too (pod Never)',
      runtime: (rt) => void (setContainer(rt, 'foo1', exited(0, {finishedAt: T0 + 3000})), setContainer(rt, 'foo3', exited(0, {finishedAt: T0 + 3000})), foo2Exits(42)(rt)),
      want: allRegular(1),
    },
    {
      name: 'the earlier run stopped by the restart (137 after the 42) only counts as history',
      runtime: (rt) => void (allExited([137, 42, 137])(rt), setContainer(rt, 'foo1', {finishedAt: T0 + 6000}), setContainer(rt, 'foo3', {finishedAt: T0 + 6000})),
      want: allRegular(1),
    },
    {
      name: 'the new run is running: nothing to do, the old exit is history',
      runtime: steps(foo2Exits(42), oldStopped, again('foo1'), again('foo2'), again('foo3')),
      want: [],
    },
    {
      name: 'in the new run foo1 succeeds: pod Never keeps it stopped; nothing else happens',
      runtime: steps(foo2Exits(42), oldStopped, again('foo1', exited(0, {finishedAt: NEW_RUN + 1000})), again('foo2'), again('foo3')),
      want: [],
    },
    {
      name: 'foo2 exits 42 again in the new run → another restart of everything',
      runtime: steps(foo2Exits(42), oldStopped, again('foo1'), again('foo2', exited(42, {finishedAt: NEW_RUN + 1000})), again('foo3')),
      want: ['KillContainer foo1', 'KillContainer foo3', ...allRegular(2)],
    },
    {
      name: 'the sandbox died too: a new sandbox runs every container',
      runtime: (rt) => void (foo2Exits(42)(rt), dead(rt)),
      want: ['KillPod', 'CreateSandbox attempt=1', ...allRegular(1)],
    },
    {
      name: 'with init containers: everything stops, the first init container runs again',
      inits: true,
      runtime: steps(initsRan, foo2Exits(42)),
      want: ['KillContainer sc', 'KillContainer foo1', 'KillContainer foo3', 'Start init init1 restart=1'],
    },
    {
      name: 'with init containers: the new run waits for its init container (the old ones are history)',
      inits: true,
      runtime: steps(initsRan, foo2Exits(42), oldStopped, again('init1')),
      want: [],
    },
    {
      name: 'with init containers: the new init container done → the sidecar starts again, then the rest',
      inits: true,
      runtime: steps(initsRan, foo2Exits(42), oldStopped, again('init1', exited(0, {finishedAt: NEW_RUN + 500}))),
      want: ['Start sidecar sc restart=1'],
    },
    {
      name: 'a sidecar exits 88 → every container stops, the pod starts from its first init container',
      inits: true,
      runtime: steps(initsRan, (rt) => setContainer(rt, 'sc', exited(88))),
      want: ['KillContainer foo1', 'KillContainer foo2', 'KillContainer foo3', 'Start init init1 restart=1'],
      reason: 'no init container has run yet; init container "init1" is first: sidecar "sc" exited with code 88 and its restartPolicyRules[0] restarts all containers',
    },
  ]
  it.each(rows)('$name', (row) => {
    check(row, restartAllPod(row.inits))
    if (row.reason !== undefined) expect(compute(row, restartAllPod(row.inits)).actions.find((a) => a.type === 'StartContainer')?.reason).toBe(row.reason)
  })
})
