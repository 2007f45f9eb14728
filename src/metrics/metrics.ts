// kube-node's Prometheus metrics for `watch`'s /metrics, under the kubelet's names and buckets
// (pkg/kubelet/metrics/metrics.go) where the kubelet has the metric, so existing dashboards and
// alerts work. Its own registry, never prom-client's global one, so several nodes (tests) coexist.
// Each family is defined once, in the file of the subsystem that feeds it; this file only puts
// them on one registry.
import {Registry} from 'prom-client'
import type {CriMetrics} from '../cri/instrumented.js'
import type {PlegMetrics} from '../pleg/relist.js'
import {buildInfoMetric} from './build-info.js'
import {criMetrics} from './cri.js'
import {kubeNodeMetrics, type KubeNodeOwnMetrics} from './kube-node.js'
import {plegMetrics, type SetRunning} from './pleg.js'
import {podMetrics, type PodMetrics} from './pods.js'
import {syncMetrics, type SyncStepMetrics} from './sync.js'

export type {WorkerOperation} from './pods.js'
export type {StoreFile} from './kube-node.js'

export interface KubeNodeMetrics extends SyncStepMetrics, PodMetrics, KubeNodeOwnMetrics {
  readonly registry: Registry
  /** For cri/instrumented.ts: kubelet_runtime_operations_* and kubelet_run_podsandbox_*. */
  readonly cri: CriMetrics
  /** For pleg/relist.ts: kubelet_pleg_*, and the running pods/containers gauges. */
  readonly pleg: PlegMetrics
  setRunning: SetRunning
  /** The exposition text for /metrics. */
  text(): Promise<string>
  /** Content type of text(): `text/plain; version=0.0.4; charset=utf-8`. */
  readonly contentType: string
}

export interface MetricsOptions {
  /** kube-node's version, for kubernetes_build_info. */
  version?: string
}

export function createMetrics(opts: MetricsOptions = {}): KubeNodeMetrics {
  const registry = new Registry()
  const registers = [registry]
  const sync = syncMetrics(registers)
  const cri = criMetrics(registers)
  const pods = podMetrics(registers)
  buildInfoMetric(registers, opts.version ?? '0.0.0')
  const pleg = plegMetrics(registers)
  return {
    registry,
    contentType: registry.contentType,
    cri,
    pleg,
    ...sync,
    ...pods,
    setRunning: pleg.setRunning,
    ...kubeNodeMetrics(registers),
    text: () => registry.metrics(),
  }
}
