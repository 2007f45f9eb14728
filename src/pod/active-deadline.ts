// spec.activeDeadlineSeconds: how long a pod may be active on the node, counted from its
// status.startTime, as the kubelet's activeDeadlineHandler counts it: the first sync of the pod's
// current instance (loop/instance-starts.ts), else, where no process stamped one (a reader of the
// runtime alone), its first sandbox. Pure.
import type {PodSpec} from '../api/types.js'
import type {RuntimeSandbox} from '../kuberuntime/model.js'

export const DEADLINE_EXCEEDED_REASON = 'DeadlineExceeded'
export const DEADLINE_EXCEEDED_MESSAGE = 'Pod was active on the node longer than the specified deadline'

/** The pod's start: its instance's first sync when known, else its first sandbox's creation. */
export function podStartTime(sandboxes: readonly RuntimeSandbox[], instanceStart?: number | undefined): number | undefined {
  if (instanceStart !== undefined) return instanceStart
  return sandboxes.length === 0 ? undefined : Math.min(...sandboxes.map((s) => s.createdAt))
}

/** When the pod's active deadline falls (ms since the epoch); undefined without one or before it started. */
export function activeDeadlineAt(spec: PodSpec, sandboxes: readonly RuntimeSandbox[], instanceStart?: number | undefined): number | undefined {
  const seconds = spec.activeDeadlineSeconds
  const start = podStartTime(sandboxes, instanceStart)
  if (seconds === undefined || seconds === null || start === undefined) return undefined
  return start + seconds * 1000
}

/** True once the pod has been active longer than its activeDeadlineSeconds. */
export function deadlineExceeded(spec: PodSpec, sandboxes: readonly RuntimeSandbox[], now: number, instanceStart?: number | undefined): boolean {
  const at = activeDeadlineAt(spec, sandboxes, instanceStart)
  return at !== undefined && now >= at
}
