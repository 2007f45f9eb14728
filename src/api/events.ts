// Events: what happened to a pod, in the kubelet's reasons and words (Pulling, Started, BackOff,
// Unhealthy, Killing, …), recorded by whoever manages the pod and shown by `events`/`describe`.

export type EventType = 'Normal' | 'Warning'

/** The pod (and container, as `spec.containers{name}`) an event is about. */
export interface EventObject {
  uid: string
  name: string
  namespace: string
  fieldPath?: string | undefined
}

/** Where the core reports events; the composition root stores them. */
export interface EventSink {
  emit(object: EventObject, type: EventType, reason: string, message: string): void
  /** The pod is being removed: nothing more may be written for it. */
  forget?(uid: string): Promise<void>
}

/** One event as stored: similar events coalesce into one with a count, as the kubelet's recorder does. */
export interface PodEvent {
  type: EventType
  reason: string
  message: string
  fieldPath?: string
  count: number
  /** ms since the epoch. */
  firstTimestamp: number
  lastTimestamp: number
}

/** The events of one pod, in <root-dir>/pods/<uid>/events.json. */
export interface PodEvents {
  apiVersion: 'kube-node.io/v1'
  kind: 'PodEvents'
  uid: string
  name: string
  namespace: string
  events: PodEvent[]
}
