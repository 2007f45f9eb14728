// `events`: what happened to kube-node's pods, as v1 Events (the kubelet's reasons and messages),
// read from the event files of the pods' directories, oldest first as kubectl lists them.
import type {Event, EventList} from '../api/types.js'
import type {PodEvent, PodEvents} from '../api/events.js'
import type {KubeNode} from './create-node.js'
import {rfc3339} from '../status/container-status.js'
import {readAllPodEvents, readPodEvents} from '../store/event-store.js'
import {listManagedPods, matchesName} from './pods.js'
import {NotFoundError} from '../util/errors.js'
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

/** The events of one pod, or of every pod; oldest first. */
export async function listEvents(node: KubeNode, podName?: string): Promise<EventList> {
  const {fs, config} = node
  let docs: PodEvents[]
  if (podName !== undefined) {
    const pod = (await listManagedPods(node, {name: podName})).find((p) => matchesName(p, podName))
    if (!pod) throw new NotFoundError(`pod "${podName}" not found`)
    const doc = await readPodEvents(fs, config.rootDir, pod.observed.uid)
    docs = doc ? [doc] : []
  } else {
    docs = (await readAllPodEvents(fs, config.rootDir)).filter((d) => d.name.endsWith(`-${config.nodeName}`))
  }
  const items = docs
    .flatMap((d) => d.events.map((e) => ({e, event: toEvent(node, d, e)})))
    .sort((a, b) => a.e.lastTimestamp - b.e.lastTimestamp)
    .map(({event}) => event)
  return {apiVersion: 'v1', kind: 'EventList', metadata: {resourceVersion: ''}, items}
}
