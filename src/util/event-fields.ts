// The field selectors the API server accepts for events (pkg/registry/core/event/strategy.go) and
// an event's values of them: one list for `kube-node events --field-selector` and the read-only API.
import type {Event} from '../api/types.js'

export const EVENT_FIELDS: readonly string[] = [
  'metadata.name',
  'metadata.namespace',
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
]

/** An event's values of EVENT_FIELDS (an unset field is ""). */
export function eventFields(e: Event): Record<string, string> {
  const io = e.involvedObject
  return {
    'metadata.name': e.metadata?.name ?? '',
    'metadata.namespace': e.metadata?.namespace ?? '',
    'involvedObject.kind': io.kind ?? '',
    'involvedObject.namespace': io.namespace ?? '',
    'involvedObject.name': io.name ?? '',
    'involvedObject.uid': io.uid ?? '',
    'involvedObject.apiVersion': io.apiVersion ?? '',
    'involvedObject.resourceVersion': io.resourceVersion ?? '',
    'involvedObject.fieldPath': io.fieldPath ?? '',
    reason: e.reason ?? '',
    reportingComponent: e.reportingComponent ?? '',
    source: e.source?.component ?? '',
    type: e.type ?? '',
  }
}
