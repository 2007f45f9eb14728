// Validation of pod-level resources (`spec.resources`, PodLevelResources, beta and on by default
// since Kubernetes 1.34). kube-node honours pod-level requests (admission and the QoS class) but
// refuses pod-level limits: the kubelet enforces them on the pod's own cgroup, and kube-node
// creates no pod cgroup (its sandboxes get the runtime's default cgroup parent, and containerd
// does not apply the CRI sandbox's resources to one), so a limit would be silently unenforced.
// Pure.
import {getObject, isObject, type JsonObject, type Report} from '../util/check.js'
import {joinPath, keySegment} from '../util/field-path.js'
import {quantityMilliValue} from '../util/quantity.js'
import {unsupported} from '../util/unsupported.js'

/** The resources the API allows at pod level (IsSupportedPodLevelResource). */
const SUPPORTED = (name: string): boolean => name === 'cpu' || name === 'memory' || name.startsWith('hugepages-')

/** The refusal of `spec.resources.limits`, the sentence the field table gives too. */
export const POD_LIMITS_REFUSAL = unsupported('podLevelLimits')

/**
 * `report` is prefixed with `spec`; quantities themselves are checked by validateResources. A
 * pod-level request below what its regular containers request together is refused, as the API
 * server does (the containers' sum is a lower bound of their aggregate).
 */
export function validatePodResources(report: Report, spec: JsonObject): void {
  const res = getObject(() => {}, 'resources', spec['resources'])
  if (!res) return
  for (const kind of ['requests', 'limits'] as const) {
    const map = res[kind]
    if (!isObject(map)) continue
    for (const name of Object.keys(map)) {
      if (!SUPPORTED(name)) report(joinPath(`resources.${kind}`, keySegment(name)), `must be cpu, memory or hugepages-<size>: pod-level resources support no other, got "${name}"`)
    }
  }
  // Any limits map is refused, an empty one too: the field itself is what kube-node cannot honour.
  if (isObject(res['limits'])) report('resources.limits', POD_LIMITS_REFUSAL)
  const requests = res['requests']
  if (!isObject(requests)) return
  for (const name of ['cpu', 'memory'] as const) {
    const want = milli(requests[name])
    if (want === undefined) continue
    const sum = containersRequest(spec['containers'], name)
    if (sum > want) {
      report(joinPath('resources.requests', name), `must be at least the sum of the containers' ${name} requests (${requests[name]} is less)`)
    }
  }
}

function milli(q: unknown): number | undefined {
  if (typeof q !== 'string' && typeof q !== 'number') return undefined
  try {
    return quantityMilliValue(q)
  } catch {
    return undefined // reported by validateResources
  }
}

/** The regular containers' requests of one resource (a container's limit stands in for a missing request). */
function containersRequest(containers: unknown, name: string): number {
  if (!Array.isArray(containers)) return 0
  let sum = 0
  for (const c of containers) {
    const res = isObject(c) && isObject(c['resources']) ? c['resources'] : undefined
    const req = res && isObject(res['requests']) ? res['requests'][name] : undefined
    const lim = res && isObject(res['limits']) ? res['limits'][name] : undefined
    sum += milli(req ?? lim) ?? 0
  }
  return sum
}
