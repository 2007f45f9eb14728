// What a pod's containers request, summed as the kubelet and scheduler sum it
// (component-helpers AggregateContainerRequests, with the sidecar rules of KEP-753): shared by
// admission and the OOM score. Pure.
import type {Container, PodSpec} from '../api/types.js'
import {quantityMilliValue, quantityValue} from '../util/quantity.js'

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
