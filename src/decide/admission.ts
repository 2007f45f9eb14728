// Pod admission: may this static pod run here next to the pods already admitted? The kubelet's
// predicate admit handler (pkg/kubelet/lifecycle/predicate.go) with the scheduler's
// AdmissionCheck (noderesources.Fits, nodeaffinity, nodename, nodeports). Pure.
//
// Order and reasons, as the kubelet gives them for a static pod:
//   1. `kubernetes.io/os` pod LABEL differs from the node's os → PodOSSelectorNodeLabelDoesNotMatch
//   2. spec.os.name is not linux → PodOSNotSupported; supplementalGroupsPolicy Strict on a
//      runtime without it → SupplementalGroupsPolicyNotSupported (runtime-support.ts)
//   3. nodeSelector / required node affinity → NodeAffinity; spec.nodeName → NodeName;
//      host ports in use → NodePorts
//   4. too many pods / not enough cpu or memory → OutOfpods, OutOfcpu, OutOfmemory
// Static pods are critical pods to the kubelet: its CriticalPodAdmissionHandler drops the
// resource reasons whenever another reason exists (so 3 wins over 4), and tries to preempt
// other pods to make room instead of rejecting. Only non-critical pods (or critical ones with a
// lower spec.priority) can be preempted, and every pod of kube-node is static, so the kubelet
// would find no victim and reject with UnexpectedAdmissionError. kube-node does not preempt
// and reports the clearer OutOf<resource> reason with the kubelet's message instead.
//   5. fields the runtime or host must support (AppArmor, hostUsers, image volumes,
//      recursiveReadOnly): runtime-support.ts, checked only when the caller read the runtime's
//      features (it does so only for a pod that uses one of them, needsRuntimeSupport)
// Not checked: ephemeral-storage, hugepages and extended resources (kube-node reports no such
// capacity), taints (skipped for static pods by the kubelet too), sysctl allow-lists and the
// eviction manager's node-pressure admission.
import type {Container, ContainerPort, PodSpec, PodStatus, StaticPod} from '../api/types.js'
import type {NodeSelectorRequirement, NodeSelectorTerm} from '../api/types.js'
import type {ResourceRequirements} from '../api/generated/types.js'
import {NO_REQUESTS, addRequests, aggregateContainerRequests, type PodRequests} from '../kuberuntime/resources.js'
import {quantityMilliValue, quantityValue} from '../util/quantity.js'
import {ownValue} from '../util/own.js'
import {LABEL_OS, type NodeInfo} from '../util/node-info.js'
import {isSidecar} from '../pod/restart-policy.js'
import {runtimeRefusal, supplementalGroupsRefusal, type RuntimeRefusal, type RuntimeSupport} from './runtime-support.js'

export type {NodeInfo} from '../util/node-info.js'

export interface Rejection {
  admit: false
  /** One word, as the kubelet's: `OutOfcpu`, `NodePorts`, ... */
  reason: string
  message: string
}

export type AdmitResult = {admit: true} | Rejection

/** The kubelet's admission reasons (predicate.go and the scheduler plugins' names). */
export const REASON = {
  osSelector: 'PodOSSelectorNodeLabelDoesNotMatch',
  osField: 'PodOSNotSupported',
  nodeAffinity: 'NodeAffinity',
  nodeName: 'NodeName',
  nodePorts: 'NodePorts',
  outOfPods: 'OutOfpods',
  outOfCpu: 'OutOfcpu',
  outOfMemory: 'OutOfmemory',
} as const

const ADMIT: AdmitResult = {admit: true}

function reject(reason: string, message: string): Rejection {
  return {admit: false, reason, message}
}

/** A scheduler predicate's failure, worded as the kubelet's PredicateFailureError. */
function predicateFailure(name: string, desc: string, detail: string): Rejection {
  return reject(name, `Predicate ${name} failed: ${desc}${detail ? ` (${detail})` : ''}`)
}

/**
 * Admit `sp` next to `admitted` (the pods already admitted and not yet finished; `sp` itself, if
 * present, is ignored). The first failing rule decides, in the kubelet's order. Without `runtime`
 * the runtime-dependent fields are left to the caller's later check (checkRuntimeSupport).
 */
export function admitPod(sp: StaticPod, admitted: readonly StaticPod[], node: NodeInfo, runtime?: RuntimeSupport): AdmitResult {
  const others = admitted.filter((o) => o.pod.metadata.uid !== sp.pod.metadata.uid)
  try {
    const sgp = runtime && supplementalGroupsRefusal(sp.pod, runtime)
    const late = (): AdmitResult | undefined => (runtime ? asRejection(runtimeRefusal(sp.pod, runtime)) : undefined)
    return checkOs(sp.pod, node) ?? asRejection(sgp) ?? checkPredicates(sp.pod, others, node) ?? checkResources(sp.pod.spec, others, node) ?? late() ?? ADMIT
  } catch (err) {
    // Total: a shape validation let through must reject this pod, never stop the others.
    return reject('UnexpectedAdmissionError', `Failed to admit pod: ${err instanceof Error ? err.message : String(err)}`)
  }
}

function asRejection(r: RuntimeRefusal | undefined): Rejection | undefined {
  return r && reject(r.reason, r.message)
}

/** The runtime-dependent checks alone, for a pod admitted before the runtime's features were read. */
export function checkRuntimeSupport(pod: StaticPod['pod'], runtime: RuntimeSupport): Rejection | undefined {
  return asRejection(supplementalGroupsRefusal(pod, runtime) ?? runtimeRefusal(pod, runtime))
}

function checkOs(pod: StaticPod['pod'], node: NodeInfo): AdmitResult | undefined {
  // The kubelet reads the pod's own label here, not its nodeSelector.
  const wanted = ownValue(pod.metadata.labels, LABEL_OS)
  if (wanted !== undefined && wanted !== node.os) {
    return reject(REASON.osSelector, "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label")
  }
  const osName = pod.spec.os?.name
  if (osName !== undefined && osName !== node.os) {
    return reject(REASON.osField, "Failed to admit pod as the OS field doesn't match node OS")
  }
  return undefined
}

function checkPredicates(pod: StaticPod['pod'], others: readonly StaticPod[], node: NodeInfo): AdmitResult | undefined {
  const affinity = nodeAffinityMismatch(pod.spec, node)
  if (affinity !== undefined) {
    return predicateFailure(REASON.nodeAffinity, "node(s) didn't match Pod's node affinity/selector", affinity)
  }
  const nodeName = pod.spec.nodeName
  if (nodeName && nodeName !== node.name) {
    return predicateFailure(REASON.nodeName, "node(s) didn't match the requested node name", `spec.nodeName is ${JSON.stringify(nodeName)}`)
  }
  const conflict = hostPortConflict(pod.spec, others)
  if (conflict !== undefined) {
    return predicateFailure(REASON.nodePorts, "node(s) didn't have free ports for the requested pod ports", conflict)
  }
  return undefined
}

// ---- node selector and required node affinity (component-helpers nodeaffinity) ----

/** Why the pod's nodeSelector or required node affinity does not match the node; undefined if it does. */
export function nodeAffinityMismatch(spec: PodSpec, node: NodeInfo): string | undefined {
  for (const [key, value] of Object.entries(spec.nodeSelector ?? {})) {
    const has = ownValue(node.labels, key)
    if (has !== value) {
      return `nodeSelector ${key}=${value}; node has ${has === undefined ? 'no such label' : `${key}=${has}`}`
    }
  }
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
  if (required === undefined) return undefined
  // Terms are ORed; a term that is empty or malformed matches nothing.
  if (required.nodeSelectorTerms.some((t) => termMatches(t, node))) return undefined
  return 'no term of requiredDuringSchedulingIgnoredDuringExecution matches the node'
}

function termMatches(term: NodeSelectorTerm, node: NodeInfo): boolean {
  const exprs = term.matchExpressions ?? []
  const fields = term.matchFields ?? []
  if (exprs.length === 0 && fields.length === 0) return false
  return exprs.every((r) => labelRequirementMatches(r, node.labels)) && fields.every((r) => fieldRequirementMatches(r, node))
}

function labelRequirementMatches(r: NodeSelectorRequirement, labels: Record<string, string>): boolean {
  const values = r.values ?? []
  const has = Object.hasOwn(labels, r.key)
  const value = labels[r.key]
  switch (r.operator) {
    case 'In':
      return values.length > 0 && has && values.includes(value ?? '')
    case 'NotIn':
      return values.length > 0 && !(has && values.includes(value ?? ''))
    case 'Exists':
      return values.length === 0 && has
    case 'DoesNotExist':
      return values.length === 0 && !has
    case 'Gt':
    case 'Lt': {
      const limit = values.length === 1 ? parseInteger(values[0]!) : undefined
      const actual = has ? parseInteger(value ?? '') : undefined
      if (limit === undefined || actual === undefined) return false
      return r.operator === 'Gt' ? actual > limit : actual < limit
    }
    default:
      return false
  }
}

function parseInteger(s: string): bigint | undefined {
  return /^[+-]?\d+$/.test(s) ? BigInt(s) : undefined
}

/** Only `metadata.name` with In/NotIn and exactly one value is a valid node field selector. */
function fieldRequirementMatches(r: NodeSelectorRequirement, node: NodeInfo): boolean {
  const values = r.values ?? []
  if (r.key !== 'metadata.name' || values.length !== 1) return false
  if (r.operator === 'In') return values[0] === node.name
  if (r.operator === 'NotIn') return values[0] !== node.name
  return false
}

// ---- host ports (scheduler nodeports + framework HostPortInfo) ----

interface HostPort {
  ip: string
  protocol: string
  port: number
}

const ANY_IP = '0.0.0.0'

/** Host ports a pod holds while it runs: its containers' and its sidecars' (GetHostPorts). */
export function podHostPorts(spec: PodSpec): HostPort[] {
  const running: Container[] = [...(spec.initContainers ?? []).filter(isSidecar), ...spec.containers]
  return running.flatMap((c) => (c.ports ?? []).filter((p) => (p.hostPort ?? 0) > 0).map(toHostPort))
}

function toHostPort(p: ContainerPort): HostPort {
  return {ip: p.hostIP || ANY_IP, protocol: p.protocol || 'TCP', port: p.hostPort ?? 0}
}

/** 0.0.0.0 conflicts with every address; a specific address with itself and 0.0.0.0. Only the
 * IPv4 wildcard is special, as in the scheduler (`::` is compared as a plain address). */
function conflicts(want: HostPort, used: HostPort): boolean {
  if (want.port !== used.port || want.protocol !== used.protocol) return false
  return want.ip === ANY_IP || used.ip === ANY_IP || want.ip === used.ip
}

const fmt = (p: HostPort): string => `${p.protocol} ${p.ip.includes(':') ? `[${p.ip}]` : p.ip}:${p.port}`

function hostPortConflict(spec: PodSpec, others: readonly StaticPod[]): string | undefined {
  const wanted = podHostPorts(spec)
  if (wanted.length === 0) return undefined
  for (const other of others) {
    for (const used of podHostPorts(other.pod.spec)) {
      const hit = wanted.find((w) => conflicts(w, used))
      if (hit !== undefined) {
        const o = other.pod.metadata
        return `${fmt(hit)} conflicts with ${fmt(used)} of pod ${o.namespace}/${o.name}`
      }
    }
  }
  return undefined
}

// ---- resources (scheduler noderesources.Fits, component-helpers PodRequests) ----

export type {PodRequests} from '../kuberuntime/resources.js'

/**
 * What the pod requests from the node: the sum of its containers and sidecars, or more if an
 * init container (plus the sidecars started before it) needs more while it runs, or its
 * pod-level requests (spec.resources) where set, plus the RuntimeClass overhead.
 */
export function podRequests(spec: PodSpec): PodRequests {
  const total = podLevelRequests(spec.resources, aggregateContainerRequests(spec))
  const overhead = spec.overhead ?? {}
  return addRequests(total, {
    cpuMilli: overhead['cpu'] === undefined ? 0 : quantityMilliValue(overhead['cpu']),
    memoryBytes: overhead['memory'] === undefined ? 0 : quantityValue(overhead['memory']),
  })
}

/**
 * Pod-level requests replace the containers' sum for cpu and memory when set (component-helpers
 * PodRequests with PodLevelResources). One left out defaults as the API server defaults it: to
 * the containers' requests when they have any, else to the pod-level limit.
 */
function podLevelRequests(res: ResourceRequirements | undefined, containers: PodRequests): PodRequests {
  const pick = (name: 'cpu' | 'memory', fromContainers: number, parse: (q: string | number) => number): number => {
    const request = res?.requests?.[name]
    if (request !== undefined) return parse(request)
    const limit = res?.limits?.[name]
    return limit !== undefined && fromContainers === 0 ? parse(limit) : fromContainers
  }
  return {
    cpuMilli: pick('cpu', containers.cpuMilli, quantityMilliValue),
    memoryBytes: pick('memory', containers.memoryBytes, quantityValue),
  }
}

function insufficient(resource: 'pods' | 'cpu' | 'memory', requested: number, used: number, capacity: number): Rejection {
  const reason = resource === 'pods' ? REASON.outOfPods : resource === 'cpu' ? REASON.outOfCpu : REASON.outOfMemory
  return reject(reason, `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`)
}

function checkResources(spec: PodSpec, others: readonly StaticPod[], node: NodeInfo): AdmitResult | undefined {
  if (others.length + 1 > node.maxPods) return insufficient('pods', 1, others.length, node.maxPods)
  const want = podRequests(spec)
  const used = others.map((o) => podRequests(o.pod.spec)).reduce(addRequests, NO_REQUESTS)
  const cap = node.capacity
  // A zero request always fits, even on a node that is already over-committed.
  if (want.cpuMilli > 0 && want.cpuMilli > cap.cpuMilli - used.cpuMilli) {
    return insufficient('cpu', want.cpuMilli, used.cpuMilli, cap.cpuMilli)
  }
  if (want.memoryBytes > 0 && want.memoryBytes > cap.memoryBytes - used.memoryBytes) {
    return insufficient('memory', want.memoryBytes, used.memoryBytes, cap.memoryBytes)
  }
  return undefined
}

// ---- the status of a rejected pod ----

/** The status the kubelet records for a rejected pod (kubelet.go rejectPod): Failed, never run. */
export function rejectedStatus(sp: StaticPod, result: Rejection): PodStatus {
  return {
    phase: 'Failed',
    reason: result.reason,
    message: `Pod was rejected: ${result.message}`,
    qosClass: sp.facts.qosClass,
  }
}
