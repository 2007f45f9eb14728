// Has `run` reached its goal for a pod (CLI.md `run`)? A pod with a container that restarts
// always (restartPolicy Always, the container's own or the pod's) is done when Running (and Ready for --wait ready); a run-to-completion pod is done when it Succeeded
// and has failed when it Failed, since its phase is final. Pure.
import type {ContainerStatus, PodStatus, StaticPod} from '../api/types.js'
import {containerRestartPolicy} from '../pod/restart-policy.js'

export type GoalState = 'done' | 'waiting' | 'failed'
export interface Goal {
  state: GoalState
  reason: string
}

/** Waiting reasons that no amount of waiting will fix. */
const PERMANENT = new Set(['ErrImageNeverPull', 'InvalidImageName'])

function allStatuses(status: PodStatus): ContainerStatus[] {
  return [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])]
}

function waitingLine(s: ContainerStatus): string {
  const w = s.state?.waiting
  const msg = w?.message ? ` (${w.message})` : ''
  return `container "${s.name}" is waiting: ${w?.reason ?? 'not started'}${msg}`
}

/** The most telling reason the pod is not there yet. */
function whyNot(status: PodStatus): string {
  const stuck = allStatuses(status).find((s) => s.state?.waiting?.reason !== undefined && !/^(ContainerCreating|PodInitializing)$/.test(s.state.waiting.reason))
  if (stuck !== undefined) return waitingLine(stuck)
  return `pod is ${status.phase ?? 'Pending'}`
}

function failureLine(status: PodStatus): string {
  const failed = allStatuses(status)
    .map((s) => ({s, t: s.state?.terminated ?? s.lastState?.terminated}))
    .filter(({t}) => t !== undefined && t.exitCode !== 0)
    .map(({s, t}) => `container "${s.name}" exited with code ${t?.exitCode ?? '?'}${t?.reason ? ` (${t.reason})` : ''}`)
  return failed.length > 0 ? `pod failed: ${failed.join(', ')}` : 'pod failed'
}

export function evaluateGoal(sp: StaticPod, status: PodStatus, wait: 'running' | 'ready' | 'none', started: boolean): Goal {
  const permanent = allStatuses(status).find((s) => PERMANENT.has(s.state?.waiting?.reason ?? ''))
  if (permanent !== undefined) return {state: 'failed', reason: waitingLine(permanent)}

  const phase = status.phase ?? 'Pending'
  if (wait === 'none') {
    if (started) return {state: 'done', reason: 'every container has been started'}
    if (phase === 'Failed') return {state: 'failed', reason: failureLine(status)}
    return {state: 'waiting', reason: whyNot(status)}
  }
  if (phase === 'Failed') return {state: 'failed', reason: failureLine(status)}

  // Long-running once any regular container restarts always (its own restartPolicy, else the
  // pod's): such a pod never completes, so Running is its goal.
  const spec = sp.pod.spec
  const alwaysRunning = new Set(spec.containers.filter((c) => containerRestartPolicy(c, spec) === 'Always').map((c) => c.name))
  if (alwaysRunning.size === 0) {
    if (phase === 'Succeeded') return {state: 'done', reason: 'pod succeeded: every container exited with code 0'}
    return {state: 'waiting', reason: whyNot(status)}
  }
  if (phase !== 'Running') return {state: 'waiting', reason: whyNot(status)}
  // As the kubelet's run-once mode: Running counts once every always-restarting container runs,
  // so a crash-looping pod (phase Running while restarting) is not taken as done.
  const notRunning = (status.containerStatuses ?? []).find((s) => alwaysRunning.has(s.name) && s.state?.running === undefined)
  if (notRunning !== undefined) {
    return {state: 'waiting', reason: notRunning.state?.waiting ? waitingLine(notRunning) : `container "${notRunning.name}" is not running`}
  }
  if (wait === 'running') return {state: 'done', reason: 'pod is Running'}
  const ready = status.conditions?.find((c) => c.type === 'Ready')
  if (ready?.status === 'True') return {state: 'done', reason: 'pod is Running and Ready'}
  const detail = ready?.message ?? ready?.reason
  return {state: 'waiting', reason: `pod is Running but not Ready${detail ? `: ${detail}` : ''}`}
}
