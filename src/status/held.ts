// The status of a pod held back by `kube-node.io/start-after`: nothing of it exists yet, and every
// reader (get's STATUS, describe, kubectl) says why, instead of a ContainerCreating that looks as
// if the runtime were at work. Pure.
import type {PodSpec} from '../api/types.js'

/** The pod's reason and each container's waiting reason while the pod is held. */
export const START_AFTER_REASON = 'StartAfter'

/** Every container waits for the same thing: the gate's sentence. */
export function heldWaiting(spec: PodSpec, why: string): Map<string, {reason: string; message: string}> {
  const names = [...(spec.initContainers ?? []), ...spec.containers].map((c) => c.name)
  return new Map(names.map((name) => [name, {reason: START_AFTER_REASON, message: why}]))
}
