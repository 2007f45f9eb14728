// The pod phase from its container statuses (the kubelet's getPhase). Static pods do not take
// the "terminal pod" shortcut, so the restart policies alone decide: each container's restart
// rules, then its own restartPolicy, then the pod's (ContainerShouldRestart). Pure.
import type {ContainerStatus, PodSpec} from '../api/types.js'
import {containerShouldRestart, isSidecar} from '../pod/restart-policy.js'

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed'

function find(statuses: readonly ContainerStatus[], name: string): ContainerStatus | undefined {
  return statuses.find((s) => s.name === name)
}

/** Any regular container has run (it is running or has terminated): initialization happened. */
export function anyRegularStarted(spec: PodSpec, statuses: readonly ContainerStatus[]): boolean {
  return spec.containers.some((c) => {
    const s = find(statuses, c.name)
    return s !== undefined && (s.state?.running !== undefined || s.state?.terminated !== undefined)
  })
}

export function podPhase(
  spec: PodSpec,
  initStatuses: readonly ContainerStatus[],
  statuses: readonly ContainerStatus[],
): PodPhase {
  let pendingInit = 0
  let pendingSidecars = 0
  /** Regular init containers that failed and will not run again. */
  let failedInit = 0
  let unknown = 0
  let running = 0
  let waiting = 0
  let stopped = 0
  /** Stopped regular containers that will not run again. */
  let stoppedForGood = 0
  let succeeded = 0

  for (const c of spec.initContainers ?? []) {
    const s = find(initStatuses, c.name)
    if (isSidecar(c)) {
      // A stopped sidecar counts neither as running nor as stopped.
      if (s === undefined) unknown++
      else if (s.state?.running !== undefined) {
        if (s.started !== true) pendingSidecars++
        running++
      } else if (s.state?.waiting !== undefined && s.lastState?.terminated === undefined) pendingSidecars++
      else if (s.state?.terminated === undefined && s.state?.waiting === undefined) {
        pendingSidecars++
        unknown++
      }
      continue
    }
    const failed = (code: number): boolean => code !== 0 && !containerShouldRestart(c, spec, code)
    if (s === undefined || s.state?.running !== undefined) pendingInit++
    else if (s.state?.terminated !== undefined) {
      if (failed(s.state.terminated.exitCode)) failedInit++
    } else if (s.state?.waiting !== undefined) {
      const last = s.lastState?.terminated
      if (last === undefined) pendingInit++
      else if (failed(last.exitCode)) failedInit++
    } else pendingInit++
  }

  for (const c of spec.containers) {
    const s = find(statuses, c.name)
    if (s === undefined) unknown++
    else if (s.state?.running !== undefined) running++
    else if (s.state?.terminated !== undefined) {
      stopped++
      if (!containerShouldRestart(c, spec, s.state.terminated.exitCode)) stoppedForGood++
      if (s.state.terminated.exitCode === 0) succeeded++
    } else if (s.state?.waiting !== undefined) {
      const last = s.lastState?.terminated
      if (last !== undefined) {
        stopped++
        if (!containerShouldRestart(c, spec, last.exitCode)) stoppedForGood++
      } else waiting++
    } else unknown++
  }

  if (failedInit > 0) return 'Failed'
  // Init containers still to do count only until a regular container has run: afterwards old
  // init containers may have been removed by garbage collection.
  if ((pendingInit > 0 || pendingSidecars > 0) && !anyRegularStarted(spec, statuses)) return 'Pending'
  if (waiting > 0) return 'Pending'
  if (running > 0 && unknown === 0) return 'Running'
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (stopped !== stoppedForGood) return 'Running' // at least one is restarting
    return stopped === succeeded ? 'Succeeded' : 'Failed'
  }
  return 'Pending'
}
