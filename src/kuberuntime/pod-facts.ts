// What the sync reads of a pod at every turn, worked out once when the StaticPod is built
// (manifest/defaults.ts and every other maker of StaticPods): the sandbox and container hashes
// its runtime objects are labelled with and judged by (hash.ts), its QoS class, and each
// container's cgroup numbers and OOM score inputs (resources.ts). A StaticPod is not changed once built (an edit is
// a new one), so its facts stay true; they are never stored (pod.json), only worked out. Pure.
import type {Container, ContainerFacts, PodFacts, StaticPod} from '../api/types.js'
import {containerHash, sandboxHash} from './hash.js'
import {cgroupLimits, oomScoreInputs, podQosClass} from './resources.js'

export function containerFacts(pod: StaticPod['pod'], container: Container): ContainerFacts {
  return {hash: containerHash(pod, container), limits: cgroupLimits(container), oom: oomScoreInputs(pod, container)}
}

export function podFacts(pod: StaticPod['pod']): PodFacts {
  const containers = new Map<string, ContainerFacts>()
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) containers.set(c.name, containerFacts(pod, c))
  return {sandboxHash: sandboxHash(pod), qosClass: podQosClass(pod.spec), containers}
}

/** A StaticPod with its facts: the one way one is made from its parts. */
export function withPodFacts(sp: Omit<StaticPod, 'facts'>): StaticPod {
  return {...sp, facts: podFacts(sp.pod)}
}
