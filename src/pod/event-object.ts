// The object an event is about: the pod, or one of its containers as the kubelet names it in
// involvedObject.fieldPath (`spec.containers{web}`, `spec.initContainers{setup}`).
import type {EventObject} from '../api/events.js'
import type {Pod} from '../api/types.js'

export function podObject(pod: Pod): EventObject {
  return {uid: pod.metadata?.uid ?? '', name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? 'default'}
}

export function containerObject(pod: Pod, container: string): EventObject {
  const init = (pod.spec?.initContainers ?? []).some((c) => c.name === container)
  return {...podObject(pod), fieldPath: `spec.${init ? 'initContainers' : 'containers'}{${container}}`}
}
