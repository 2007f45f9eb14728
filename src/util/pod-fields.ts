// The field selectors the API server accepts for pods (pkg/registry/core/pod/strategy.go) and a
// pod's values of them: one list for kube-node's own --field-selector and for the read-only API.
import type {Pod} from '../api/types.js'

export const POD_FIELDS: readonly string[] = [
  'metadata.name',
  'metadata.namespace',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.nominatedNodeName',
]

/** A pod's values of POD_FIELDS, as the API server fills them (an unset field is "", a boolean "true"/"false"). */
export function podFields(pod: Pod): Record<string, string> {
  return {
    'metadata.name': pod.metadata?.name ?? '',
    'metadata.namespace': pod.metadata?.namespace ?? '',
    'spec.nodeName': pod.spec?.nodeName ?? '',
    'spec.restartPolicy': pod.spec?.restartPolicy ?? '',
    'spec.schedulerName': pod.spec?.schedulerName ?? '',
    'spec.serviceAccountName': pod.spec?.serviceAccountName ?? '',
    'spec.hostNetwork': String(pod.spec?.hostNetwork ?? false),
    'status.phase': pod.status?.phase ?? '',
    'status.podIP': pod.status?.podIP ?? '',
    'status.nominatedNodeName': pod.status?.nominatedNodeName ?? '',
  }
}
