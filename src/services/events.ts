// `events`: what happened to kube-node's pods, as v1 Events (the kubelet's reasons and messages),
// read from the event files of the pods' directories, oldest first as kubectl lists them.
import type {Event, EventList} from '../api/types.js'
import {eventFields} from '../util/event-fields.js'
import type {PodEvent, PodEvents} from '../api/events.js'
import type {KubeNode} from '../node/create-node.js'
import {rfc3339} from '../status/container-status.js'
import {readAllPodEvents, readPodEvents} from '../store/event-store.js'
import {matchesFields, type FieldRequirement} from './query/selectors.js'
import {hashOf} from '../util/hash.js'

/**
 * The kubelet's `<pod>.<hex>` name, from what identifies the event in its pod's list (the fields
 * that coalesce repeats) and when it began: the same for the event's whole life, whatever older
 * events are dropped around it, so `events --watch` and API clients see each event once.
 */
export function eventName(pod: Pick<PodEvents, 'uid' | 'name'>, e: PodEvent): string {
  return `${pod.name}.${e.firstTimestamp.toString(16)}${hashOf({uid: pod.uid, type: e.type, reason: e.reason, message: e.message, fieldPath: e.fieldPath ?? ''}, 8)}`
}

function toEvent(node: KubeNode, pod: PodEvents, e: PodEvent): Event {
  const event: Event = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {name: eventName(pod, e), namespace: pod.namespace},
    involvedObject: {apiVersion: 'v1', kind: 'Pod', name: pod.name, namespace: pod.namespace, uid: pod.uid, ...(e.fieldPath ? {fieldPath: e.fieldPath} : {})},
    reason: e.reason,
    message: e.message,
    type: e.type,
    count: e.count,
    source: {component: 'kubelet', host: node.config.nodeName},
    reportingComponent: 'kube-node',
    reportingInstance: node.config.nodeName,
  }
  const first = rfc3339(e.firstTimestamp)
  const last = rfc3339(e.lastTimestamp)
  if (first !== undefined) event.firstTimestamp = first
  if (last !== undefined) event.lastTimestamp = last
  return event
}

/** Which events: those of some pods (by uid), of a namespace, and matching event fields. */
export interface EventFilter {
  uids?: readonly string[] | undefined
  namespace?: string | undefined
  fields?: readonly FieldRequirement[] | undefined
}

export {EVENT_FIELDS} from '../util/event-fields.js'

/** This node's events (of the pods `filter.uids` names, when given); oldest first. */
export async function listEvents(node: KubeNode, filter: EventFilter = {}): Promise<EventList> {
  const {fs, config} = node
  let docs: PodEvents[]
  if (filter.uids !== undefined) {
    docs = (await Promise.all(filter.uids.map((uid) => readPodEvents(fs, config.rootDir, uid)))).filter((d): d is PodEvents => d !== undefined)
  } else {
    docs = (await readAllPodEvents(fs, config.rootDir)).filter((d) => d.name.endsWith(`-${config.nodeName}`))
  }
  if (filter.namespace !== undefined) docs = docs.filter((d) => d.namespace === filter.namespace)
  const items = docs
    .flatMap((d) => d.events.map((e) => ({e, event: toEvent(node, d, e)})))
    .filter(({event}) => !filter.fields?.length || matchesFields(filter.fields, eventFields(event)))
    .sort((a, b) => a.e.lastTimestamp - b.e.lastTimestamp)
    .map(({event}) => event)
  return {apiVersion: 'v1', kind: 'EventList', metadata: {resourceVersion: ''}, items}
}
