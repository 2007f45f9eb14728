// v1 ContainerStatus from the runtime's containers (the kubelet's convertToAPIContainerStatuses):
// the newest instance of a name gives `state`, the one before it `lastState`. Pure.
import type {Container, ContainerState, ContainerStatus, PodFacts} from '../api/types.js'
import type {RuntimeContainer} from '../kuberuntime/model.js'
import type {ContainerProbeResults} from '../pod/probe-results.js'
import {allByName} from '../pod/restart-policy.js'
import {containerSpecChanged} from '../kuberuntime/hash.js'

/** RFC 3339 at whole seconds, as the API prints times; undefined for "never" (0). */
export function rfc3339(ms: number): string | undefined {
  if (!Number.isFinite(ms) || ms <= 0) return undefined
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

export function runtimeContainerId(id: string): string {
  return `containerd://${id}`
}

/** The given times as RFC 3339 members, leaving out those that never happened. */
function times(ms: Record<string, number>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(ms)) {
    const t = rfc3339(v)
    if (t !== undefined) out[k] = t
  }
  return out
}

/** One runtime container as an API state. */
export function toApiState(rc: RuntimeContainer): ContainerState {
  switch (rc.state) {
    case 'running':
      return {running: times({startedAt: rc.startedAt})}
    case 'created':
      return {waiting: {}}
    case 'exited':
      return {
        terminated: {
          exitCode: rc.exitCode,
          ...(rc.reason ? {reason: rc.reason} : {}),
          ...(rc.message ? {message: rc.message} : {}),
          ...times({startedAt: rc.startedAt, finishedAt: rc.finishedAt}),
          containerID: runtimeContainerId(rc.id),
        },
      }
    case 'unknown':
      // It ran and the runtime lost track of it: it is not running any more. One that never
      // started is simply waiting.
      if (rc.startedAt > 0) {
        return {
          terminated: {
            exitCode: 137,
            reason: 'ContainerStatusUnknown',
            message: 'The container could not be located when the pod was terminated',
            containerID: runtimeContainerId(rc.id),
          },
        }
      }
      return {waiting: {}}
  }
}

export interface ContainerStatusInput {
  /** The desired pod's facts: a container made from another definition of it is not its status. */
  facts: PodFacts
  container: Container
  /** Every runtime container of the pod. */
  runtime: readonly RuntimeContainer[]
  probes: ContainerProbeResults | undefined
  /** Why the container is waiting (back-off, image errors), from the last sync. */
  waiting: {reason: string; message: string} | undefined
  /** Reason of the default Waiting state: ContainerCreating, or PodInitializing with init containers. */
  defaultReason: 'ContainerCreating' | 'PodInitializing'
  kind: 'init' | 'sidecar' | 'regular'
}

export function containerStatus(input: ContainerStatusInput): ContainerStatus {
  const {container: c, probes} = input
  const [newest, previous] = allByName(input.runtime, c.name)
  // The newest instance was made from an earlier definition (an edit whose new container has not
  // started, e.g. its image cannot be pulled): it is not this container's status. It may still
  // serve, but the edit has not happened: never ready, no restarts or last state of its own yet.
  // Init containers keep their verdict: an edit to one does not re-run a pod that has initialized.
  const outdated = input.kind !== 'init' && newest !== undefined && containerSpecChanged(input.facts, c.name, newest).changed
  // Restarts count from the first run of this definition (kuberuntime RESTART_COUNT_BASE_ANNOTATION).
  const base = newest?.restartBase ?? 0
  let state: ContainerState = newest ? toApiState(newest) : {waiting: {reason: input.defaultReason}}
  let lastState: ContainerState = previous && !outdated && (previous.restartBase ?? 0) === base ? toApiState(previous) : {}

  // A known reason to wait (CrashLoopBackOff, ErrImagePull, ...) replaces a non-running state, or
  // the running instance of an earlier definition; a termination it follows moves to lastState.
  // A completed init container is left as is.
  const completedInit = input.kind === 'init' && state.terminated?.exitCode === 0
  if (input.waiting !== undefined && (state.running === undefined || outdated) && !completedInit) {
    if (state.terminated !== undefined && !outdated) lastState = {terminated: state.terminated}
    state = {waiting: {reason: input.waiting.reason, message: input.waiting.message}}
  } else if (outdated) {
    // No reason known yet (a reader of the runtime alone, or the moment before the new one starts):
    // the new definition is being created, whatever the old instance is doing.
    state = {waiting: {reason: 'ContainerCreating'}}
  }

  const running = state.running !== undefined && !outdated
  const started = running && (c.startupProbe === undefined || probes?.startup === 'Success')
  let ready: boolean
  if (input.kind === 'init') ready = state.terminated?.exitCode === 0
  else ready = started && (c.readinessProbe === undefined || probes?.readiness === 'Success')

  const status: ContainerStatus = {
    name: c.name,
    state,
    lastState,
    ready,
    restartCount: newest && !outdated ? Math.max(0, newest.restartCount - base) : 0,
    image: (outdated ? c.image : newest?.image) || c.image || '',
    imageID: newest?.imageRef ?? '',
    started,
  }
  if (newest !== undefined) status.containerID = runtimeContainerId(newest.id)
  return status
}
