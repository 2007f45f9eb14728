// Small pure facts about a pod's containers and its restart policy, shared by the decision
// (compute-pod-actions) and the status (status/generate).
import type {Container, PodSpec} from '../api/types.js'
import type {ContainerType, RuntimeContainer} from '../kuberuntime/model.js'

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never'

export function podRestartPolicy(spec: PodSpec): RestartPolicy {
  const p = spec.restartPolicy
  return p === 'OnFailure' || p === 'Never' ? p : 'Always'
}

/** A restartable init container (`restartPolicy: Always` on an init container): a sidecar. */
export function isSidecar(c: Container): boolean {
  return c.restartPolicy === 'Always'
}

export function initContainerType(c: Container): ContainerType {
  return isSidecar(c) ? 'sidecar' : 'init'
}

/**
 * The newest runtime container of that name. `containers` is newest first (RuntimePod), but
 * ordering by createdAt keeps this right for any input.
 */
export function newestByName(containers: readonly RuntimeContainer[], name: string): RuntimeContainer | undefined {
  let best: RuntimeContainer | undefined
  for (const c of containers) {
    if (c.name !== name) continue
    if (best === undefined || c.createdAt > best.createdAt) best = c
  }
  return best
}

/** All runtime containers of that name, newest first. */
export function allByName(containers: readonly RuntimeContainer[], name: string): RuntimeContainer[] {
  return containers
    .map((c, i) => ({c, i}))
    .filter(({c}) => c.name === name)
    .sort((a, b) => b.c.createdAt - a.c.createdAt || a.i - b.i)
    .map(({c}) => c)
}

/** A regular init container counts as failed when it exited non-zero or was OOM-killed. */
export function isInitFailed(c: RuntimeContainer): boolean {
  if (c.state === 'unknown') return true
  return c.state === 'exited' && (c.exitCode !== 0 || c.reason === 'OOMKilled')
}

/** The restart count a new instance of that container gets: newest old one + 1, or 0. */
export function nextRestartCount(previous: RuntimeContainer | undefined): number {
  return previous === undefined ? 0 : previous.restartCount + 1
}
