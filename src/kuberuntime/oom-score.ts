// The container's oom_score_adj, as the kubelet's qos policy sets it (pkg/kubelet/qos/policy.go):
// node-critical pods (priorityClassName system-node-critical, e.g. kubeadm's etcd) and
// Guaranteed pods are killed last (-997), BestEffort first (1000), Burstable in between by the
// share of the node's memory the container requests (plus its share of pod-level requests; a
// sidecar no higher than the least-requesting regular container). Pure.
import type {Container, Pod, PodSpec} from '../api/types.js'
import {podQosClass} from './qos.js'
import {aggregateContainerRequests, containerRequests} from './requests.js'
import {quantityValue} from '../util/quantity.js'

export const GUARANTEED_OOM_SCORE_ADJ = -997
export const BEST_EFFORT_OOM_SCORE_ADJ = 1000

export function containerOomScoreAdj(pod: Pod, container: Container, memoryCapacityBytes: number): number {
  const spec = pod.spec
  if (!spec) return 0
  if (spec.priorityClassName === 'system-node-critical') return GUARANTEED_OOM_SCORE_ADJ
  const qos = podQosClass(spec)
  if (qos === 'Guaranteed') return GUARANTEED_OOM_SCORE_ADJ
  if (qos === 'BestEffort') return BEST_EFFORT_OOM_SCORE_ADJ
  if (memoryCapacityBytes <= 0) return BEST_EFFORT_OOM_SCORE_ADJ - 1
  // Pod-level memory requests beyond the containers' are shared out equally (KEP-2837).
  const remaining = podLevelMemoryRequestSet(spec) ? remainingMemoryPerContainer(spec) : 0
  const score = (request: number): number => 1000 - Math.floor((1000 * (request + remaining)) / memoryCapacityBytes)
  // Burstable: 1000 - 1000 * request / capacity.
  let adj = score(containerRequests(container).memoryBytes)
  // A sidecar is killed no sooner than the regular container that requests the least.
  const sidecar = container.restartPolicy === 'Always' && (spec.initContainers ?? []).some((c) => c.name === container.name)
  if (sidecar && spec.containers.length > 0) adj = Math.min(adj, score(Math.min(...spec.containers.map((c) => containerRequests(c).memoryBytes))))
  // Kept within (Guaranteed, BestEffort) so that a Burstable container never ranks with either.
  if (adj < 1000 + GUARANTEED_OOM_SCORE_ADJ) return 1000 + GUARANTEED_OOM_SCORE_ADJ
  if (adj === BEST_EFFORT_OOM_SCORE_ADJ) return adj - 1
  return adj
}

function podLevelMemoryRequestSet(spec: PodSpec): boolean {
  return Object.keys(spec.resources?.requests ?? {}).some((name) => name === 'cpu' || name === 'memory' || name.startsWith('hugepages-'))
}

/** (pod-level memory request - what the containers request) / number of containers, as the kubelet divides it. */
function remainingMemoryPerContainer(spec: PodSpec): number {
  const podRequest = spec.resources?.requests?.['memory']
  const podBytes = podRequest === undefined ? 0 : quantityValue(podRequest)
  if (podBytes === 0) return 0
  const count = spec.containers.length + (spec.initContainers ?? []).length
  return Math.trunc((podBytes - aggregateContainerRequests(spec).memoryBytes) / count)
}
