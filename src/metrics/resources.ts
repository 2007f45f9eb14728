// `/metrics/resource`: the kubelet's stable resource metrics (pkg/kubelet/metrics/collectors/
// resource_metrics.go) from CRI ListContainerStats and the node's /proc figures. Names, labels,
// types and sample timestamps are the kubelet's: usage samples carry the time the runtime took
// them. Only this node's kube-node pods count, joined with the runtime cache by container ID.
// A pod's usage is the sum of its containers' (the kubelet reads the pod cgroup, which adds the
// pause process: a few hundred KiB). Pure.
import type {ContainerStats} from '../cri/api.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {formatFamilies, type Family, type Sample} from './exposition.js'
import type {NodeUsage} from './node-usage.js'

export interface ResourceInputs {
  node: NodeUsage
  /** When the node figures were read, ms since the epoch. */
  nodeAt: number
  /** kube-node's pods on this node (the runtime cache). */
  pods: readonly RuntimePod[]
  /** The runtime's answer to ListContainerStats; undefined when the call failed. */
  stats: readonly ContainerStats[] | undefined
}

const NS_PER_SECOND = 1e9

interface PodUsage {
  labels: {pod: string; namespace: string}
  cpu?: {seconds: number; at: number}
  memory?: {bytes: number; at: number}
}

export function renderResourceMetrics(inputs: ResourceInputs): string {
  const scrapeError: Family = {name: 'resource_scrape_error', help: '1 if there was an error while getting container metrics, 0 otherwise', type: 'gauge', samples: [{value: inputs.stats === undefined ? 1 : 0}]}
  // As the kubelet: when the stats cannot be had, only the error is reported.
  if (inputs.stats === undefined) return formatFamilies([scrapeError])

  const byId = new Map(inputs.stats.map((s) => [s.id, s]))
  const startTime: Sample[] = []
  const containerCpu: Sample[] = []
  const containerMemory: Sample[] = []
  const pods: PodUsage[] = []
  const sorted = [...inputs.pods].sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name))
  for (const pod of sorted) {
    const usage: PodUsage = {labels: {pod: pod.name, namespace: pod.namespace}}
    const running = pod.containers.filter((c) => c.state === 'running' && byId.has(c.id)).sort((a, b) => a.name.localeCompare(b.name))
    for (const c of running) {
      const s = byId.get(c.id)
      if (s === undefined) continue
      const labels = {container: c.name, pod: pod.name, namespace: pod.namespace}
      if (c.startedAt > 0) startTime.push({labels, value: c.startedAt / 1000})
      const cpu = s.cpuUsageCoreNanoSeconds
      if (cpu) {
        containerCpu.push({labels, value: cpu.value / NS_PER_SECOND, timestampMs: cpu.timestampMs})
        usage.cpu = {seconds: (usage.cpu?.seconds ?? 0) + cpu.value / NS_PER_SECOND, at: Math.max(usage.cpu?.at ?? 0, cpu.timestampMs)}
      }
      const mem = s.memoryWorkingSetBytes
      if (mem) {
        containerMemory.push({labels, value: mem.value, timestampMs: mem.timestampMs})
        usage.memory = {bytes: (usage.memory?.bytes ?? 0) + mem.value, at: Math.max(usage.memory?.at ?? 0, mem.timestampMs)}
      }
    }
    if (running.length > 0) pods.push(usage)
  }
  const {node, nodeAt} = inputs
  return formatFamilies([
    {name: 'node_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed by the node in core-seconds', type: 'counter', samples: node.cpuSeconds === undefined ? [] : [{value: node.cpuSeconds, timestampMs: nodeAt}]},
    {name: 'node_memory_working_set_bytes', help: 'Current working set of the node in bytes', type: 'gauge', samples: node.workingSetBytes === undefined ? [] : [{value: node.workingSetBytes, timestampMs: nodeAt}]},
    {name: 'container_start_time_seconds', help: 'Start time of the container since unix epoch in seconds', type: 'gauge', samples: startTime},
    {name: 'container_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed by the container in core-seconds', type: 'counter', samples: containerCpu},
    {name: 'container_memory_working_set_bytes', help: 'Current working set of the container in bytes', type: 'gauge', samples: containerMemory},
    {name: 'pod_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed by the pod in core-seconds', type: 'counter', samples: pods.flatMap((p) => (p.cpu ? [{labels: p.labels, value: p.cpu.seconds, timestampMs: p.cpu.at}] : []))},
    {name: 'pod_memory_working_set_bytes', help: 'Current working set of the pod in bytes', type: 'gauge', samples: pods.flatMap((p) => (p.memory ? [{labels: p.labels, value: p.memory.bytes, timestampMs: p.memory.at}] : []))},
    scrapeError,
  ])
}
