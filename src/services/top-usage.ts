// `top pods`: CPU as a rate and memory per pod and container, from two ListContainerStats answers
// taken a moment apart — the cumulative counters /metrics/resource serves, turned into a rate as
// metrics-server does for kubectl top (the CPU time between the two samples over the time between
// their own timestamps; a container that restarted in between has a new ID and no rate yet; a pod
// is shown only when every running container of it has both figures). Pure.
import type {ContainerStats} from '../cri/api.js'
import type {RuntimePod} from '../kuberuntime/model.js'

export interface ContainerUsage {
  name: string
  /** CPU in use, in nanocores (1e9 = one core). */
  nanoCores: number
  /** Working-set memory, in bytes. */
  memoryBytes: number
}

export interface PodUsage {
  name: string
  namespace: string
  /** The later sample's time, ms since the epoch. */
  timestampMs: number
  /** Time between the two samples, ms. */
  windowMs: number
  containers: ContainerUsage[]
}

export interface UsageInputs {
  /** kube-node's pods on this node, as the runtime cache has them. */
  pods: readonly RuntimePod[]
  before: readonly ContainerStats[]
  after: readonly ContainerStats[]
}

/** One container's usage from two samples, or undefined when no rate can be had. */
export function containerUsage(before: ContainerStats | undefined, after: ContainerStats | undefined): {nanoCores: number; memoryBytes: number; at: number; windowMs: number} | undefined {
  const c0 = before?.cpuUsageCoreNanoSeconds
  const c1 = after?.cpuUsageCoreNanoSeconds
  const mem = after?.memoryWorkingSetBytes
  if (!c0 || !c1 || !mem) return undefined
  const windowMs = c1.timestampMs - c0.timestampMs
  // A counter that went back (a reset) or samples not in order give no rate, as metrics-server.
  if (windowMs <= 0 || c1.value < c0.value) return undefined
  return {nanoCores: Math.round(((c1.value - c0.value) / windowMs) * 1000), memoryBytes: mem.value, at: c1.timestampMs, windowMs}
}

/** Each pod's usage, sorted by namespace and name; pods with no running container or missing figures are left out. */
export function podUsages(inputs: UsageInputs): PodUsage[] {
  const before = new Map(inputs.before.map((s) => [s.id, s]))
  const after = new Map(inputs.after.map((s) => [s.id, s]))
  const out: PodUsage[] = []
  for (const pod of inputs.pods) {
    const running = pod.containers.filter((c) => c.state === 'running')
    if (running.length === 0) continue
    const usages = running.map((c) => ({name: c.name, usage: containerUsage(before.get(c.id), after.get(c.id))}))
    if (usages.some((u) => u.usage === undefined)) continue
    const containers: ContainerUsage[] = []
    let timestampMs = 0
    let windowMs = 0
    for (const {name, usage} of usages) {
      if (!usage) continue
      containers.push({name, nanoCores: usage.nanoCores, memoryBytes: usage.memoryBytes})
      timestampMs = Math.max(timestampMs, usage.at)
      windowMs = Math.max(windowMs, usage.windowMs)
    }
    containers.sort((a, b) => a.name.localeCompare(b.name))
    out.push({name: pod.name, namespace: pod.namespace, timestampMs, windowMs, containers})
  }
  return out.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name))
}

/** kubectl top's CPU cell: millicores, rounded up as resource.Quantity's MilliValue does. */
export function formatCpu(nanoCores: number): string {
  return `${Math.ceil(nanoCores / 1e6)}m`
}

/** kubectl top's memory cell: whole MiB, rounded down. */
export function formatMemory(bytes: number): string {
  return `${Math.floor(bytes / (1024 * 1024))}Mi`
}

/** A byte count as resource.Quantity writes a binary quantity: the largest suffix that divides it. */
export function binaryQuantity(bytes: number): string {
  const suffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']
  let value = Math.round(bytes)
  let i = 0
  while (value !== 0 && value % 1024 === 0 && i < suffixes.length - 1) {
    value /= 1024
    i++
  }
  return `${value}${suffixes[i]}`
}
