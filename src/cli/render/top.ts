// `top pods` output: kubectl top's columns (NAME, CPU(cores), MEMORY(bytes); with --containers
// POD, NAME, …; NAMESPACE first when pods of several namespaces are shown), or with -o json the
// metrics.k8s.io PodMetricsList that metrics-server serves to kubectl top.
import type {PodUsage} from '../../services/top-usage.js'
import {binaryQuantity, formatCpu, formatMemory} from '../../services/top-usage.js'
import {renderTable} from './table.js'
import {toJson} from './output.js'

export interface PodMetrics {
  kind: 'PodMetrics'
  apiVersion: 'metrics.k8s.io/v1beta1'
  metadata: {name: string; namespace: string}
  timestamp: string
  window: string
  containers: {name: string; usage: {cpu: string; memory: string}}[]
}

export interface PodMetricsList {
  kind: 'PodMetricsList'
  apiVersion: 'metrics.k8s.io/v1beta1'
  metadata: Record<string, never>
  items: PodMetrics[]
}

export interface TopRenderOptions {
  containers: boolean
  /** Show the NAMESPACE column (-A, or pods of several namespaces). */
  namespaces: boolean
}

/** metrics-server's usage quantities: CPU in nanocores, memory in bytes as a binary quantity. */
export function podMetricsList(usages: readonly PodUsage[]): PodMetricsList {
  return {
    kind: 'PodMetricsList',
    apiVersion: 'metrics.k8s.io/v1beta1',
    metadata: {},
    items: usages.map((u) => ({
      kind: 'PodMetrics',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: {name: u.name, namespace: u.namespace},
      timestamp: new Date(u.timestampMs).toISOString().replace(/\.\d+Z$/, 'Z'),
      window: `${(u.windowMs / 1000).toFixed(3).replace(/\.?0+$/, '')}s`,
      containers: u.containers.map((c) => ({name: c.name, usage: {cpu: `${c.nanoCores}n`, memory: binaryQuantity(c.memoryBytes)}})),
    })),
  }
}

export function renderTopTable(usages: readonly PodUsage[], opts: TopRenderOptions): string {
  const ns = opts.namespaces ? ['NAMESPACE'] : []
  if (opts.containers) {
    const rows = usages.flatMap((u) => u.containers.map((c) => [...(opts.namespaces ? [u.namespace] : []), u.name, c.name, formatCpu(c.nanoCores), formatMemory(c.memoryBytes)]))
    return renderTable([...ns, 'POD', 'NAME', 'CPU(cores)', 'MEMORY(bytes)'], rows, {color: false})
  }
  const rows = usages.map((u) => {
    const cpu = u.containers.reduce((n, c) => n + c.nanoCores, 0)
    const mem = u.containers.reduce((n, c) => n + c.memoryBytes, 0)
    return [...(opts.namespaces ? [u.namespace] : []), u.name, formatCpu(cpu), formatMemory(mem)]
  })
  return renderTable([...ns, 'NAME', 'CPU(cores)', 'MEMORY(bytes)'], rows, {color: false})
}

export function renderTop(usages: readonly PodUsage[], output: 'table' | 'json', opts: TopRenderOptions): string {
  return output === 'json' ? toJson(podMetricsList(usages)) : renderTopTable(usages, opts)
}
