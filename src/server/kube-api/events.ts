// Events as the API serves them: the event store's v1 Events, filtered by namespace, name and
// the field selectors `kubectl describe` and `kubectl get events --field-selector` send
// (`involvedObject.name=…,involvedObject.namespace=…,involvedObject.uid=…`). Pure.
import type {Event} from '../../api/types.js'
import {matchesFields, matchesLabels, type FieldSelector, type LabelSelector} from './selectors.js'
import {EVENT_FIELDS as EVENT_FIELD_NAMES, eventFields} from '../../util/event-fields.js'

/** The field selectors the API server accepts for events. */
export const EVENT_FIELDS: ReadonlySet<string> = new Set(EVENT_FIELD_NAMES)

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
