import {describe, expect, it} from 'vitest'
import type {ContainerStatus, PodStatus, StaticPod} from '../../../src/api/types.js'
import {evaluateGoal} from '../../../src/decide/goal.js'
import {basePod} from '../../support/pods.js'

type Wait = 'running' | 'ready' | 'none'

const running = (name: string): ContainerStatus => ({name, state: {running: {}}, ready: true, restartCount: 0, image: 'i', imageID: '', containerID: `containerd://${name}`})
const waiting = (name: string, reason: string): ContainerStatus => ({name, state: {waiting: {reason, message: 'details'}}, ready: false, restartCount: 0, image: 'i', imageID: ''})
const terminated = (name: string, exitCode: number): ContainerStatus => ({name, state: {terminated: {exitCode, reason: exitCode ? 'Error' : 'Completed'}}, ready: false, restartCount: 0, image: 'i', imageID: ''})

function st(phase: string, containers: ContainerStatus[], ready = true): PodStatus {
  return {phase, containerStatuses: containers, conditions: [{type: 'Ready', status: ready ? 'True' : 'False', ...(ready ? {} : {reason: 'ContainersNotReady', message: 'containers with unready status: [web]'})}]}
}

type Policy = 'Always' | 'OnFailure' | 'Never'

/** A pod with one container per status of `status` (same names), `own` giving some their own restartPolicy. */
function pod(restartPolicy: Policy, status: PodStatus, own: Record<string, Policy> = {}): StaticPod {
  const sp = basePod()
  sp.pod.spec.restartPolicy = restartPolicy
  const template = sp.pod.spec.containers[0]!
  sp.pod.spec.containers = (status.containerStatuses ?? []).map((s) => ({...template, name: s.name, ...(own[s.name] ? {restartPolicy: own[s.name]} : {})}))
  return sp
}

describe('evaluateGoal', () => {
  it.each<{name: string; policy: Policy; own?: Record<string, Policy>; status: PodStatus; wait: Wait; started?: boolean; state: string; reason: RegExp}>([
    {name: 'Always, Running → done', policy: 'Always', status: st('Running', [running('web')]), wait: 'running', state: 'done', reason: /Running/},
    {name: 'Always, Pending → waiting', policy: 'Always', status: st('Pending', [waiting('web', 'ContainerCreating')]), wait: 'running', state: 'waiting', reason: /Pending/},
    {
      name: 'Always, image pull error → waiting, naming it',
      policy: 'Always',
      status: st('Pending', [waiting('web', 'ErrImagePull')]),
      wait: 'running',
      state: 'waiting',
      reason: /^container "web" is waiting: ErrImagePull/,
    },
    {
      name: 'Always, Running but crash-looping → waiting',
      policy: 'Always',
      status: st('Running', [running('db'), waiting('web', 'CrashLoopBackOff')]),
      wait: 'running',
      state: 'waiting',
      reason: /CrashLoopBackOff/,
    },
    {name: 'Always, Running and Ready, wait ready → done', policy: 'Always', status: st('Running', [running('web')]), wait: 'ready', state: 'done', reason: /Ready/},
    {
      name: 'Always, Running not Ready, wait ready → waiting',
      policy: 'Always',
      status: st('Running', [running('web')], false),
      wait: 'ready',
      state: 'waiting',
      reason: /not Ready: containers with unready status: \[web\]/,
    },
    {
      name: 'Never, but web restarts Always by its own policy: Running → done, the finished job aside',
      policy: 'Never',
      own: {web: 'Always'},
      status: st('Running', [running('web'), terminated('job', 0)]),
      wait: 'running',
      state: 'done',
      reason: /Running/,
    },
    {
      name: 'Always, but job is Never by its own policy: Running while job is done → done',
      policy: 'Always',
      own: {job: 'Never'},
      status: st('Running', [running('web'), terminated('job', 0)]),
      wait: 'running',
      state: 'done',
      reason: /Running/,
    },
    {
      name: 'Never, web Always by its own policy but crash-looping → waiting',
      policy: 'Never',
      own: {web: 'Always'},
      status: st('Running', [waiting('web', 'CrashLoopBackOff'), terminated('job', 0)]),
      wait: 'running',
      state: 'waiting',
      reason: /CrashLoopBackOff/,
    },
    {name: 'Never, Succeeded → done', policy: 'Never', status: st('Succeeded', [terminated('job', 0)]), wait: 'running', state: 'done', reason: /succeeded/},
    {name: 'Never, Failed → failed', policy: 'Never', status: st('Failed', [terminated('job', 3)]), wait: 'ready', state: 'failed', reason: /container "job" exited with code 3/},
    {name: 'Never, Running → waiting for it to finish', policy: 'Never', status: st('Running', [running('job')]), wait: 'running', state: 'waiting', reason: /Running/},
    {name: 'OnFailure, Succeeded, wait ready → done', policy: 'OnFailure', status: st('Succeeded', [terminated('job', 0)]), wait: 'ready', state: 'done', reason: /succeeded/},
    {
      name: 'ErrImageNeverPull → failed at once',
      policy: 'Always',
      status: st('Pending', [waiting('web', 'ErrImageNeverPull')]),
      wait: 'running',
      state: 'failed',
      reason: /container "web" is waiting: ErrImageNeverPull/,
    },
    {name: 'InvalidImageName → failed, even with wait none', policy: 'Always', status: st('Pending', [waiting('web', 'InvalidImageName')]), wait: 'none', started: true, state: 'failed', reason: /InvalidImageName/},
    {name: 'none, started → done', policy: 'Never', status: st('Running', [running('job')]), wait: 'none', started: true, state: 'done', reason: /started/},
    {name: 'none, not started yet → waiting', policy: 'Always', status: st('Pending', [waiting('web', 'ContainerCreating')]), wait: 'none', started: false, state: 'waiting', reason: /Pending/},
  ])('$name', ({policy, own, status, wait, started, state, reason}) => {
    // A window of 0: the first sighting of Running counts, as before windows.
    const goal = evaluateGoal({sp: pod(policy, status, own), status, wait, started: started ?? false, now: NOW, stableForMs: 0})
    expect(goal.state).toBe(state)
    expect(goal.reason).toMatch(reason)
  })
})

const NOW = Date.parse('2026-11-27T10:00:00Z')
const WINDOW = 5_000
/** An API time `s` seconds before NOW. */
const ago = (s: number): string => new Date(NOW - s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
const up = (name: string, seconds: number, restartCount = 0): ContainerStatus => ({...running(name), state: {running: {startedAt: ago(seconds)}}, restartCount})
/** Waiting in back-off after an instance that ran from `startedS` to `finishedS` seconds ago. */
const crashLooping = (name: string, startedS: number, finishedS: number, exitCode = 3, reason: string | undefined = 'Error', restartCount = 1): ContainerStatus => ({
  ...waiting(name, 'CrashLoopBackOff'),
  lastState: {terminated: {exitCode, ...(reason ? {reason} : {}), startedAt: ago(startedS), finishedAt: ago(finishedS)}},
  restartCount,
})
const exitedNow = (name: string, ranS: number, exitCode = 3): ContainerStatus => ({...terminated(name, exitCode), state: {terminated: {exitCode, reason: 'Error', startedAt: ago(ranS), finishedAt: ago(0)}}, restartCount: 0})

/** A pod whose single Ready condition turned True `readyS` seconds ago. */
function readyFor(containers: ContainerStatus[], ready: boolean): PodStatus {
  return st('Running', containers, ready)
}

describe('evaluateGoal with a stability window (--stable-for)', () => {
  it.each<{name: string; status: PodStatus; wait: Wait; readySinceS?: number; own?: Record<string, Policy>; policy?: Policy; state: string; reason: RegExp}>([
    {name: 'running for longer than the window → done', status: st('Running', [up('web', 30)]), wait: 'running', state: 'done', reason: /Running for 5s/},
    {name: 'just started (the status read right after StartContainer) → waiting', status: st('Running', [up('web', 0)]), wait: 'running', state: 'waiting', reason: /"web" is running, not yet steady \(up 0s of 5s\)/},
    {name: 'up 4 s of a 5 s window (API times are whole seconds) → waiting', status: st('Running', [up('web', 5)]), wait: 'running', state: 'waiting', reason: /not yet steady/},
    {name: 'the youngest container decides', status: st('Running', [up('db', 60), up('web', 2)]), wait: 'running', state: 'waiting', reason: /"web" is running, not yet steady/},
    {
      name: 'crashed at once, restarted, crashed again (CrashLoopBackOff) → failed at once',
      status: st('Running', [crashLooping('web', 1, 1, 3)]),
      wait: 'running',
      state: 'failed',
      reason: /container "web" exited with code 3 \(Error\) 0s after it started and is in CrashLoopBackOff \(restarts: 1\)/,
    },
    {
      name: 'ran 3 s then exited 4, backed off → failed (inside a 5 s window)',
      status: st('Running', [crashLooping('web', 4, 1, 4)]),
      wait: 'running',
      state: 'failed',
      reason: /exited with code 4 \(Error\) 3s after it started/,
    },
    {
      name: 'OOM-killed inside the window, backed off → failed, naming OOMKilled',
      status: st('Running', [crashLooping('web', 2, 1, 137, 'OOMKilled')]),
      wait: 'running',
      state: 'failed',
      reason: /code 137 \(OOMKilled\)/,
    },
    {
      name: 'crashed after running longer than the window, backed off → waiting for the restart',
      status: st('Running', [crashLooping('web', 100, 40)]),
      wait: 'running',
      state: 'waiting',
      reason: /CrashLoopBackOff/,
    },
    {
      name: 'first exit, not yet restarted (the kubelet restarts it at once) → waiting',
      status: st('Running', [exitedNow('web', 1)]),
      wait: 'running',
      state: 'waiting',
      reason: /"web" is not running/,
    },
    {name: 'crashed once, restarted, up for the window → done, restarts kept', status: st('Running', [up('web', 10, 1)]), wait: 'running', state: 'done', reason: /Running/},
    {
      name: 'a healthy container beside a crash-looping one → failed',
      status: st('Running', [up('db', 60), crashLooping('web', 1, 1)]),
      wait: 'running',
      state: 'failed',
      reason: /"web" exited/,
    },
    {
      name: 'RunContainerError in the status alone → waiting (run fails on the step itself, unless the runtime was only slow)',
      status: st('Running', [waiting('web', 'RunContainerError')]),
      wait: 'running',
      state: 'waiting',
      reason: /RunContainerError/,
    },
    {
      name: 'ready: Ready for the window (no probe: since it runs) → done',
      status: readyFor([up('web', 30)], true),
      wait: 'ready',
      readySinceS: 30,
      state: 'done',
      reason: /Running and Ready for 5s/,
    },
    {
      name: 'ready without a probe, just started → waiting (Ready the moment it runs is no evidence)',
      status: readyFor([up('web', 1)], true),
      wait: 'ready',
      readySinceS: 1,
      state: 'waiting',
      reason: /not yet steady/,
    },
    {
      name: 'ready: containers steady for a whole window before Ready was first seen (a probe that passed late) → done',
      status: readyFor([up('web', 30)], true),
      wait: 'ready',
      readySinceS: 2,
      state: 'done',
      reason: /Ready/,
    },
    {
      name: 'ready: a re-run of a settled pod, Ready at the first look → done at once',
      status: readyFor([up('web', 3600, 2)], true),
      wait: 'ready',
      readySinceS: 0,
      state: 'done',
      reason: /Running and Ready/,
    },
    {
      name: 'ready: Ready seen 2 s after a container that started 6 s ago → waiting for Ready to hold',
      status: readyFor([up('web', 6)], true),
      wait: 'ready',
      readySinceS: 2,
      state: 'waiting',
      reason: /pod is Ready, not yet steady \(Ready for 2s of 5s\)/,
    },
    {name: 'ready: not Ready → waiting', status: readyFor([up('web', 30)], false), wait: 'ready', state: 'waiting', reason: /not Ready/},
    {
      name: 'a sidecar (restartable init container) must be steady too',
      status: {...st('Running', [up('web', 30)]), initContainerStatuses: [{...up('proxy', 1), name: 'proxy'}]},
      wait: 'running',
      state: 'waiting',
      reason: /"proxy" is running, not yet steady/,
    },
    {
      name: 'a container of a Never pod that restarts Always by its own policy is held to the window; the job is not',
      policy: 'Never',
      own: {web: 'Always'},
      status: st('Running', [up('web', 30), terminated('job', 0)]),
      wait: 'running',
      state: 'done',
      reason: /Running/,
    },
    {
      name: 'an OnFailure job that crash-loops is not failed early: it may yet succeed',
      policy: 'OnFailure',
      status: st('Running', [crashLooping('job', 1, 1)]),
      wait: 'running',
      state: 'waiting',
      reason: /CrashLoopBackOff/,
    },
  ])('$name', ({status, wait, readySinceS, own, policy, state, reason}) => {
    const sp = pod(policy ?? 'Always', status, own)
    if (status.initContainerStatuses) sp.pod.spec.initContainers = status.initContainerStatuses.map((s) => ({...sp.pod.spec.containers[0]!, name: s.name, restartPolicy: 'Always'}))
    const readySince = readySinceS === undefined ? undefined : NOW - readySinceS * 1000
    const goal = evaluateGoal({sp, status, wait, started: true, now: NOW, stableForMs: WINDOW, readySince})
    expect(goal.state).toBe(state)
    expect(goal.reason).toMatch(reason)
  })

  it('a window of 0 waits out a crash loop as before windows (the first sighting of Running counts)', () => {
    const status = st('Running', [crashLooping('web', 1, 1)])
    expect(evaluateGoal({sp: pod('Always', status), status, wait: 'running', started: true, now: NOW, stableForMs: 0}).state).toBe('waiting')
    const fresh = st('Running', [up('web', 0)])
    expect(evaluateGoal({sp: pod('Always', fresh), status: fresh, wait: 'running', started: true, now: NOW, stableForMs: 0}).state).toBe('done')
  })
})
