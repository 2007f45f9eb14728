// spec.activeDeadlineSeconds: how long a pod may be active on the node, counted from its start
// (its first sandbox), as the kubelet's activeDeadlineHandler counts it. Pure.
import type {PodSpec} from '../api/types.js'
import type {RuntimeSandbox} from '../kuberuntime/model.js'

export const DEADLINE_EXCEEDED_REASON = 'DeadlineExceeded'
export const DEADLINE_EXCEEDED_MESSAGE = 'Pod was active on the node longer than the specified deadline'

/** When the pod's active deadline falls (ms since the epoch); undefined without one or before it started. */
export function activeDeadlineAt(spec: PodSpec, sandboxes: readonly RuntimeSandbox[]): number | undefined {
  const seconds = spec.activeDeadlineSeconds
  if (seconds === undefined || seconds === null || sandboxes.length === 0) return undefined
  return Math.min(...sandboxes.map((s) => s.createdAt)) + seconds * 1000
}

/** True once the pod has been active longer than its activeDeadlineSeconds. */
export function deadlineExceeded(spec: PodSpec, sandboxes: readonly RuntimeSandbox[], now: number): boolean {
  const at = activeDeadlineAt(spec, sandboxes)
  return at !== undefined && now >= at
}
