// A pod's compute resources as the kubelet reads them: its QoS class (GetPodQOS, or
// ComputePodLevelQOS when the pod-level `spec.resources` sets cpu or memory), what its containers
// request summed (AggregateContainerRequests, with the sidecar rules of KEP-753) and the OOM score
// adjustment that follows from both (pkg/kubelet/qos/policy.go), and the cgroup numbers each
// container's requests and limits give. One file, as these answer the same question (how much
// does this pod matter) and always change together. Only cpu and memory count; a missing request
// defaults to the limit, as API defaulting does. Pure.
import type {CgroupLimits, Container, OomScoreInputs, Pod, PodSpec, QosClass} from '../api/types.js'
import type {ResourceRequirements} from '../api/generated/types.js'
import {quantityMilliValue, quantityValue} from '../util/quantity.js'

export type {QosClass}

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

export interface PodRequests {
  cpuMilli: number
  memoryBytes: number
}

export const NO_REQUESTS: PodRequests = {cpuMilli: 0, memoryBytes: 0}

export const addRequests = (a: PodRequests, b: PodRequests): PodRequests => ({cpuMilli: a.cpuMilli + b.cpuMilli, memoryBytes: a.memoryBytes + b.memoryBytes})
export const maxRequests = (a: PodRequests, b: PodRequests): PodRequests => ({
  cpuMilli: Math.max(a.cpuMilli, b.cpuMilli),
  memoryBytes: Math.max(a.memoryBytes, b.memoryBytes),
})

export function containerRequests(c: Container): PodRequests {
  // API defaulting copies limits into missing requests; do the same in case it did not run.
  const req = c.resources?.requests ?? {}
  const lim = c.resources?.limits ?? {}
  const cpu = req['cpu'] ?? lim['cpu']
  const memory = req['memory'] ?? lim['memory']
  return {
    cpuMilli: cpu === undefined ? 0 : quantityMilliValue(cpu),
    memoryBytes: memory === undefined ? 0 : quantityValue(memory),
  }
}

/**
 * The sum of the regular containers and sidecars (init containers with restartPolicy Always),
 * or more if an init container, plus the sidecars started before it, needs more while it runs.
 */
export function aggregateContainerRequests(spec: PodSpec): PodRequests {
  let total = spec.containers.map(containerRequests).reduce(addRequests, NO_REQUESTS)
  let sidecars = NO_REQUESTS
  let initPeak = NO_REQUESTS
  for (const c of spec.initContainers ?? []) {
    const r = containerRequests(c)
    if (c.restartPolicy === 'Always') {
      // A sidecar keeps running beside the regular containers and every later init container.
      total = addRequests(total, r)
      sidecars = addRequests(sidecars, r)
      initPeak = maxRequests(initPeak, sidecars)
    } else {
      initPeak = maxRequests(initPeak, addRequests(r, sidecars))
    }
  }
  return maxRequests(total, initPeak)
}

// cgroup CPU constants of the kubelet (pkg/kubelet/cm/helpers_linux.go).
const MIN_SHARES = 2
const SHARES_PER_CPU = 1024
const QUOTA_PERIOD = 100_000
const MIN_QUOTA = 1000

/** CPU shares from the request (or the limit when only a limit is set), quota and period from
 * the CPU limit, memory limit in bytes. No request gives the minimum shares, as in the kubelet. */
export function cgroupLimits(container: Container): CgroupLimits {
  const requests = container.resources?.requests ?? {}
  const limits = container.resources?.limits ?? {}
  const cpuRequest = requests['cpu'] ?? limits['cpu']
  const milliRequest = cpuRequest !== undefined ? quantityMilliValue(cpuRequest) : 0
  const cpuShares = Math.max(MIN_SHARES, Math.floor((milliRequest * SHARES_PER_CPU) / 1000))
  let cpuQuota = 0
  let cpuPeriod = 0
  if (limits['cpu'] !== undefined) {
    const milliLimit = quantityMilliValue(limits['cpu'])
    cpuPeriod = QUOTA_PERIOD
    cpuQuota = milliLimit === 0 ? 0 : Math.max(MIN_QUOTA, Math.floor((milliLimit * QUOTA_PERIOD) / 1000))
  }
  const memoryLimitInBytes = limits['memory'] !== undefined ? quantityValue(limits['memory']) : 0
  return {cpuPeriod, cpuQuota, cpuShares, memoryLimitInBytes}
}

export const GUARANTEED_OOM_SCORE_ADJ = -997
export const BEST_EFFORT_OOM_SCORE_ADJ = 1000

/**
 * What a container's OOM score adjustment depends on, but the node's memory: worked out once with
 * the pod (pod-facts.ts), the adjustment then follows from the node's memory (oomScoreAdj).
 */
export function oomScoreInputs(pod: Pod, container: Container): OomScoreInputs {
  const spec = pod.spec
  if (!spec) return {fixed: 0}
  if (spec.priorityClassName === 'system-node-critical') return {fixed: GUARANTEED_OOM_SCORE_ADJ}
  const qos = podQosClass(spec)
  if (qos === 'Guaranteed') return {fixed: GUARANTEED_OOM_SCORE_ADJ}
  if (qos === 'BestEffort') return {fixed: BEST_EFFORT_OOM_SCORE_ADJ}
  // Pod-level memory requests beyond the containers' are shared out equally (KEP-2837).
  const shared = podLevelMemoryRequestSet(spec) ? remainingMemoryPerContainer(spec) : 0
  // A sidecar is killed no sooner than the regular container that requests the least.
  const sidecar = container.restartPolicy === 'Always' && (spec.initContainers ?? []).some((c) => c.name === container.name)
  const sidecarFloor = sidecar && spec.containers.length > 0 ? Math.min(...spec.containers.map((c) => containerRequests(c).memoryBytes)) : undefined
  return {memoryRequest: containerRequests(container).memoryBytes, shared, sidecarFloor}
}

/** The OOM score adjustment of a container with these inputs on a node with this much memory. */
export function oomScoreAdj(inputs: OomScoreInputs, memoryCapacityBytes: number): number {
  if ('fixed' in inputs) return inputs.fixed
  if (memoryCapacityBytes <= 0) return BEST_EFFORT_OOM_SCORE_ADJ - 1
  const score = (request: number): number => 1000 - Math.floor((1000 * (request + inputs.shared)) / memoryCapacityBytes)
  // Burstable: 1000 - 1000 * request / capacity.
  let adj = score(inputs.memoryRequest)
  if (inputs.sidecarFloor !== undefined) adj = Math.min(adj, score(inputs.sidecarFloor))
  // Kept within (Guaranteed, BestEffort) so that a Burstable container never ranks with either.
  if (adj < 1000 + GUARANTEED_OOM_SCORE_ADJ) return 1000 + GUARANTEED_OOM_SCORE_ADJ
  if (adj === BEST_EFFORT_OOM_SCORE_ADJ) return adj - 1
  return adj
}

export function containerOomScoreAdj(pod: Pod, container: Container, memoryCapacityBytes: number): number {
  return oomScoreAdj(oomScoreInputs(pod, container), memoryCapacityBytes)
}

function podLevelMemoryRequestSet(spec: PodSpec): boolean {
  return Object.keys(spec.resources?.requests ?? {}).some((name) => name === 'cpu' || name === 'memory' || name.startsWith('hugepages-'))
}

/** (pod-level memory request - what the containers request) / number of containers, as the kubelet divides it. */
function remainingMemoryPerContainer(spec: PodSpec): number {
  const podRequest = spec.resources?.requests?.['memory']
  const podBytes = podRequest === undefined ? 0 : quantityValue(podRequest)
  if (podBytes === 0) return 0
  const count = spec.containers.length + (spec.initContainers ?? []).length
  return Math.trunc((podBytes - aggregateContainerRequests(spec).memoryBytes) / count)
}
