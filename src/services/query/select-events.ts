// `events [POD] [-n] [-l] [--field-selector]`: the events of the pods a name or label selector
// picks (or of every pod), in a namespace, matching kubectl's event fields (type=Warning,
// involvedObject.name=web, reason=BackOff, …).
import type {EventList} from '../../api/types.js'
import type {KubeNode} from '../../node/create-node.js'
import {listEvents} from '../events.js'
import type {FieldRequirement, LabelRequirement} from './selectors.js'
import {selectMany, selectOne} from './select-pods.js'
import type {PodRef} from './pod-query.js'

export interface EventSelection {
  pod?: PodRef | undefined
  namespace?: string | undefined
  /** Labels of the pods whose events are wanted (events themselves carry none). */
  podLabels?: readonly LabelRequirement[] | undefined
  fields?: readonly FieldRequirement[] | undefined
}

/** The uids whose events are wanted: undefined for every pod's. Resolved once (a watch reuses them). */
export async function eventPods(node: KubeNode, sel: EventSelection): Promise<string[] | undefined> {
  if (sel.pod) return [(await selectOne(node, sel.pod)).managed.observed.uid]
  if (sel.podLabels?.length) return (await selectMany(node, {namespace: sel.namespace, labels: sel.podLabels})).map((s) => s.managed.observed.uid)
  return undefined
}

export async function selectEvents(node: KubeNode, sel: EventSelection, uids: readonly string[] | undefined): Promise<EventList> {
  return listEvents(node, {uids, namespace: sel.namespace, fields: sel.fields})
}
