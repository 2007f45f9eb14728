// A pod's QoS class from its containers' requests and limits (the kubelet's GetPodQOS), or from
// the pod-level `spec.resources` when it sets cpu or memory (PodLevelResources: the kubelet's
// ComputePodLevelQOS). Only cpu and memory count. A missing request defaults to the limit, as
// API defaulting does. Pure.
import type {Container, PodSpec} from '../api/types.js'
import type {ResourceRequirements} from '../api/generated/types.js'
import {quantityMilliValue} from '../util/quantity.js'

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort'

const COMPUTE = ['cpu', 'memory'] as const

/** A Kubernetes quantity (`500m`, `128Mi`, `1e3`, `2`) as a number; NaN when unparsable. */
export function parseQuantity(q: string | number): number {
  try {
    return quantityMilliValue(q) / 1000
  } catch {
    return NaN
  }
}

function positive(list: Record<string, string | number> | undefined, name: string): number | undefined {
  const raw = list?.[name]
  if (raw === undefined) return undefined
  const v = parseQuantity(raw)
  return v > 0 ? v : undefined
}

/** Pod-level resources count once they set cpu or memory (the kubelet's IsPodLevelResourcesSet). */
export function podLevelResourcesSet(res: ResourceRequirements | undefined): boolean {
  return COMPUTE.some((name) => res?.requests?.[name] !== undefined || res?.limits?.[name] !== undefined)
}

export function podQosClass(spec: PodSpec): QosClass {
  if (podLevelResourcesSet(spec.resources)) return podLevelQos(spec)
  const all: Container[] = [...(spec.initContainers ?? []), ...spec.containers]
  const requests = new Map<string, number>()
  const limits = new Map<string, number>()
  let guaranteed = true
  for (const c of all) {
    const res = c.resources
    let limitsFound = 0
    for (const name of COMPUTE) {
      const limit = positive(res?.limits, name)
      const request = positive(res?.requests, name) ?? (res?.requests?.[name] === undefined ? limit : undefined)
      if (request !== undefined) requests.set(name, (requests.get(name) ?? 0) + request)
      if (limit !== undefined) {
        limits.set(name, (limits.get(name) ?? 0) + limit)
        limitsFound++
      }
    }
    if (limitsFound < COMPUTE.length) guaranteed = false
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort'
  if (guaranteed) {
    for (const [name, req] of requests) if (limits.get(name) !== req) guaranteed = false
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable'
}

/**
 * The QoS class from pod-level resources. A pod-level request left out defaults as the API
 * server defaults it: to the containers' requests of that resource when any sets one, else to the
 * pod-level limit. Guaranteed needs cpu and memory limits equal to the requests.
 */
function podLevelQos(spec: PodSpec): QosClass {
  const res = spec.resources
  const containers: Container[] = [...(spec.initContainers ?? []), ...spec.containers]
  let guaranteed = true
  let any = false
  for (const name of COMPUTE) {
    const limit = positive(res?.limits, name)
    const fromContainers = containers.reduce((sum, c) => sum + (positive(c.resources?.requests, name) ?? positive(c.resources?.limits, name) ?? 0), 0)
    const request = positive(res?.requests, name) ?? (res?.requests?.[name] !== undefined ? undefined : fromContainers > 0 ? fromContainers : limit)
    if (request !== undefined || limit !== undefined) any = true
    if (limit === undefined || request !== limit) guaranteed = false
  }
  if (!any) return 'BestEffort'
  return guaranteed ? 'Guaranteed' : 'Burstable'
}
