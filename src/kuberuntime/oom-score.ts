// The container's oom_score_adj, as the kubelet's qos policy sets it (pkg/kubelet/qos/policy.go):
// node-critical pods (priorityClassName system-node-critical, e.g. kubeadm's etcd) and
// Guaranteed pods are killed last (-997), BestEffort first (1000), Burstable in between by the
// share of the node's memory the container requests. Pure.
import type {Container, Pod} from '../api/types.js'
import {podQosClass} from './qos.js'
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
  const request = container.resources?.requests?.['memory'] ?? container.resources?.limits?.['memory']
  const requested = request !== undefined ? quantityValue(request) : 0
  // Burstable: 1000 - 1000 * request / capacity, kept within (Guaranteed, BestEffort) so that a
  // Burstable container never ranks with either of them.
  const adj = 1000 - Math.floor((1000 * requested) / memoryCapacityBytes)
  if (adj < 1000 + GUARANTEED_OOM_SCORE_ADJ) return 1000 + GUARANTEED_OOM_SCORE_ADJ
  if (adj === BEST_EFFORT_OOM_SCORE_ADJ) return adj - 1
  return adj
}
