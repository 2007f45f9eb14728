// Which of a pod's sandboxes is the current one: shared by the decisions and status.
import type {RuntimeSandbox} from '../kuberuntime/model.js'

/** Sandboxes newest first, by creation time (ties keep the input order). */
export function sortSandboxes(sandboxes: readonly RuntimeSandbox[]): RuntimeSandbox[] {
  return sandboxes
    .map((s, i) => ({s, i}))
    .sort((a, b) => b.s.createdAt - a.s.createdAt || a.i - b.i)
    .map(({s}) => s)
}
