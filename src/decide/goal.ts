// Has `run` reached its goal for a pod (CLI.md `run`)? A pod with a container that restarts
// always (restartPolicy Always, the container's own or the pod's, or a sidecar) is done when
// those containers have been running steadily for the stability window (and the pod Ready for
// as long with --wait ready); a run-to-completion pod is done when it Succeeded and has failed
// when it Failed, since its phase is final. A container that cannot start, or that crashed
// inside its window and is now backed off (CrashLoopBackOff), fails the pod at once: no amount
// of waiting proves it up (a container that cannot start at all is failed by run-once, from the
// step's failure). Pure: container states and times in, verdict out.
import type {ContainerStatus, PodStatus, StaticPod} from '../api/types.js'
import {containerRestartPolicy} from '../pod/restart-policy.js'

export type GoalState = 'done' | 'waiting' | 'failed'
export interface Goal {
  state: GoalState
  reason: string
}

export interface GoalInput {
  sp: StaticPod
  status: PodStatus
  wait: 'running' | 'ready' | 'none'
  /** Every container of the spec has been created at least once (for `--wait none`). */
  started: boolean
  now: number
  /** How long a container must have run, and the pod been Ready, to count (0: the first sighting). */
  stableForMs: number
  /** Since when this run has seen the pod Ready without a break, if it is Ready now. */
  readySince?: number | undefined
}

/** Waiting reasons that no amount of waiting will fix. */
const PERMANENT = new Set(['ErrImageNeverPull', 'InvalidImageName'])

/** API times are whole seconds: a start at 10.9 s reads 10 s, so one second more is always waited. */
const API_TIME_RESOLUTION_MS = 1000

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

function ms(time: string | undefined): number | undefined {
  if (time === undefined) return undefined
  const t = Date.parse(time)
  return Number.isFinite(t) ? t : undefined
}

function seconds(msValue: number): string {
  return `${Math.round(msValue / 100) / 10}s`
}

/** The names of the containers that must stay up: regular ones that restart always, and sidecars. */
function alwaysRunningNames(sp: StaticPod): {regular: Set<string>; sidecars: Set<string>} {
  const spec = sp.pod.spec
  const regular = new Set(spec.containers.filter((c) => containerRestartPolicy(c, spec) === 'Always').map((c) => c.name))
  const sidecars = new Set((spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name))
  return {regular, sidecars}
}

/**
 * A container that must stay up but crashed inside its window and is now backed off: the
 * kubelet restarts a first crash at once, so a second crash in a row is what back-off shows.
 * One that ran longer than the window before it crashed is restarted while `run` waits.
 */
function crashedInsideWindow(s: ContainerStatus, stableForMs: number): string | undefined {
  // A window of 0 asks for the first sighting of Running, as before windows: back-off is waited out.
  if (stableForMs <= 0 || s.state?.waiting?.reason !== 'CrashLoopBackOff') return undefined
  const t = s.lastState?.terminated
  const started = ms(t?.startedAt)
  const finished = ms(t?.finishedAt)
  const ran = started !== undefined && finished !== undefined ? finished - started : undefined
  if (ran !== undefined && ran >= stableForMs + API_TIME_RESOLUTION_MS) return undefined
  const code = t ? ` with code ${t.exitCode}${t.reason ? ` (${t.reason})` : ''}` : ''
  const after = ran !== undefined ? ` ${seconds(ran)} after it started` : ''
  return `container "${s.name}" exited${code}${after} and is in CrashLoopBackOff (restarts: ${s.restartCount})`
}

/** How long the container has been running, if it runs. */
function runningFor(s: ContainerStatus, now: number): number | undefined {
  const r = s.state?.running
  if (r === undefined) return undefined
  const started = ms(r.startedAt)
  return started === undefined ? 0 : now - started - API_TIME_RESOLUTION_MS
}

export function evaluateGoal(input: GoalInput): Goal {
  const {sp, status, wait, started, now, stableForMs} = input
  const statuses = allStatuses(status)
  const permanent = statuses.find((s) => PERMANENT.has(s.state?.waiting?.reason ?? ''))
  if (permanent !== undefined) return {state: 'failed', reason: waitingLine(permanent)}

  const phase = status.phase ?? 'Pending'
  if (wait === 'none') {
    if (started) return {state: 'done', reason: 'every container has been started'}
    if (phase === 'Failed') return {state: 'failed', reason: failureLine(status)}
    return {state: 'waiting', reason: whyNot(status)}
  }
  if (phase === 'Failed') return {state: 'failed', reason: failureLine(status)}

  // Long-running once any regular container restarts always (its own restartPolicy, else the
  // pod's): such a pod never completes, so running steadily is its goal.
  const {regular, sidecars} = alwaysRunningNames(sp)
  if (regular.size === 0) {
    if (phase === 'Succeeded') return {state: 'done', reason: 'pod succeeded: every container exited with code 0'}
    return {state: 'waiting', reason: whyNot(status)}
  }
  const mustRun = [...(status.initContainerStatuses ?? []).filter((s) => sidecars.has(s.name)), ...(status.containerStatuses ?? []).filter((s) => regular.has(s.name))]
  for (const s of mustRun) {
    const crashed = crashedInsideWindow(s, stableForMs)
    if (crashed !== undefined) return {state: 'failed', reason: crashed}
  }
  if (phase !== 'Running') return {state: 'waiting', reason: whyNot(status)}
  const notRunning = mustRun.find((s) => s.state?.running === undefined)
  if (notRunning !== undefined) {
    return {state: 'waiting', reason: notRunning.state?.waiting ? waitingLine(notRunning) : `container "${notRunning.name}" is not running`}
  }
  const window = stableForMs > 0 ? ` for ${seconds(stableForMs)}` : ''
  const youngest = stableForMs > 0 ? mustRun.map((s) => ({s, up: runningFor(s, now) ?? 0})).sort((a, b) => a.up - b.up)[0] : undefined
  if (youngest !== undefined && youngest.up < stableForMs) {
    return {state: 'waiting', reason: `container "${youngest.s.name}" is running, not yet steady (up ${seconds(Math.max(0, youngest.up))} of ${seconds(stableForMs)})`}
  }
  if (wait === 'running') return {state: 'done', reason: `pod is Running${window}`}
  const ready = status.conditions?.find((c) => c.type === 'Ready')
  if (ready?.status !== 'True') {
    const detail = ready?.message ?? ready?.reason
    return {state: 'waiting', reason: `pod is Running but not Ready${detail ? `: ${detail}` : ''}`}
  }
  // Ready must have held for the window, unless the containers were already steady for a
  // whole window when it was first seen (a re-run of a settled pod: the prober only confirmed it).
  const since = input.readySince ?? now
  const settledBefore = mustRun.every((s) => (runningFor(s, since) ?? 0) >= stableForMs)
  if (stableForMs > 0 && now - since < stableForMs && !settledBefore) {
    return {state: 'waiting', reason: `pod is Ready, not yet steady (Ready for ${seconds(now - since)} of ${seconds(stableForMs)})`}
  }
  return {state: 'done', reason: `pod is Running and Ready${window}`}
}
