// Events as the API serves them: the event store's v1 Events, filtered by namespace, name and
// the field selectors `kubectl describe` and `kubectl get events --field-selector` send
// (`involvedObject.name=…,involvedObject.namespace=…,involvedObject.uid=…`). Pure.
import type {Event} from '../../api/types.js'
import {matchesFields, matchesLabels, type FieldSelector, type LabelSelector} from './selectors.js'

/** The field selectors the API server accepts for events (pkg/registry/core/event/strategy.go). */
export const EVENT_FIELDS: ReadonlySet<string> = new Set([
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
])

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

export interface EventFilter {
  namespace?: string | undefined
  name?: string | undefined
  labels: LabelSelector
  fields: FieldSelector
}

export function eventMatches(filter: EventFilter, e: Event): boolean {
  if (filter.namespace !== undefined && e.metadata?.namespace !== filter.namespace) return false
  if (filter.name !== undefined && e.metadata?.name !== filter.name) return false
  return matchesLabels(filter.labels, e.metadata?.labels) && matchesFields(filter.fields, eventFields(e))
}

export function eventList(items: Event[]): unknown {
  return {kind: 'EventList', apiVersion: 'v1', metadata: {resourceVersion: ''}, items}
}
