// Who waits for whom when a pod with sidecars stops (the kubelet's newTerminationOrdering,
// kuberuntime_termination_order.go): every container is killed at once and runs its preStop hook
// at once; only the stop itself waits. The regular containers wait for nobody; each sidecar waits
// for every regular container and for the sidecar after it in spec order, so sidecars stop last,
// in reverse order, and keep serving the main containers while those shut down. Pure.
import type {Pod} from '../api/types.js'
import type {ContainerType} from '../kuberuntime/model.js'
import {isSidecar} from './restart-policy.js'

export interface Stopping {
  name: string
  type: ContainerType
}

/**
 * Container name → the names of the containers being stopped that must be stopped before it.
 * Containers not being stopped are never waited for. Without the pod's spec (its manifest is gone)
 * the sidecars still wait for the regular containers, in no order among themselves.
 */
export function terminationPrerequisites(pod: Pod | undefined, stopping: readonly Stopping[]): Map<string, string[]> {
  const names = new Set(stopping.map((c) => c.name))
  const out = new Map<string, string[]>()
  const sidecars = pod?.spec?.initContainers?.filter(isSidecar).map((c) => c.name) ?? stopping.filter((c) => c.type === 'sidecar').map((c) => c.name)
  const mains = (pod?.spec?.containers.map((c) => c.name) ?? stopping.filter((c) => c.type === 'regular').map((c) => c.name)).filter((n) => names.has(n))
  if (sidecars.length === 0) return out
  sidecars.forEach((name, i) => {
    if (!names.has(name)) return
    // The next sidecar in spec order, when the spec gives an order.
    const later = pod?.spec ? sidecars[i + 1] : undefined
    out.set(name, [...mains, ...(later !== undefined && names.has(later) ? [later] : [])])
  })
  return out
}
