// A pod's QoS class from its containers' requests and limits (the kubelet's GetPodQOS). Only
// cpu and memory count. A missing request defaults to the limit, as API defaulting does. Pure.
import type {Container, PodSpec} from '../api/types.js'

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort'

const COMPUTE = ['cpu', 'memory'] as const
const SUFFIX: Record<string, number> = {
  n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
}

/** A Kubernetes quantity (`500m`, `128Mi`, `1e3`, `2`) as a number; NaN when unparsable. */
export function parseQuantity(q: string | number): number {
  if (typeof q === 'number') return q
  const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?)$/.exec(q.trim())
  if (m === null) return NaN
  const base = Number(m[1])
  if (m[2] !== undefined) return base * 10 ** Number(m[2].slice(1))
  return base * (SUFFIX[m[3] ?? ''] ?? NaN)
}

function positive(list: Record<string, string | number> | undefined, name: string): number | undefined {
  const raw = list?.[name]
  if (raw === undefined) return undefined
  const v = parseQuantity(raw)
  return v > 0 ? v : undefined
}

export function podQosClass(spec: PodSpec): QosClass {
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
