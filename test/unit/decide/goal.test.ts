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
    const goal = evaluateGoal(pod(policy, status, own), status, wait, started ?? false)
    expect(goal.state).toBe(state)
    expect(goal.reason).toMatch(reason)
  })
})
