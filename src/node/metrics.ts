// kube-node's Prometheus metrics for `watch`'s /metrics, under the kubelet's names and buckets
// (pkg/kubelet/metrics/metrics.go) where the kubelet has the metric, so existing dashboards and
// alerts work. Its own registry, never prom-client's global one, so several nodes (tests) coexist.
import {Counter, Gauge, Histogram, Registry, exponentialBuckets} from 'prom-client'
import type {CriMetrics} from '../cri/instrumented.js'
import type {RuntimeContainerState} from '../kuberuntime/model.js'
import type {PlegMetrics} from '../pleg/relist.js'

export type WorkerOperation = 'create' | 'update' | 'sync' | 'kill'

const STORE_FILES = ['status', 'events'] as const
export type StoreFile = (typeof STORE_FILES)[number]

export interface KubeNodeMetrics {
  readonly registry: Registry
  /** For cri/instrumented.ts: kubelet_runtime_operations_*. */
  readonly cri: CriMetrics
  /** For pleg/relist.ts: kubelet_pleg_*, and the running pods/containers gauges. */
  readonly pleg: PlegMetrics
  /** Time from kube-node first seeing a pod to all its containers running. */
  observePodStart(seconds: number): void
  /** One pod worker pass (a sync of one pod). */
  observeWorker(operation: WorkerOperation, seconds: number): void
  setRunning(pods: number, containersByState: Partial<Record<RuntimeContainerState, number>>): void
  syncError(): void
  /** Manifests of `source` (a file, directory or URL) that could not be used. */
  setManifestErrors(source: string, n: number): void
  /** Where the store's write counts come from (status records and event files), read at each scrape. */
  countStoreWrites(counts: () => Record<StoreFile, number>): void
  /** The exposition text for /metrics. */
  text(): Promise<string>
  /** Content type of text(): `text/plain; version=0.0.4; charset=utf-8`. */
  readonly contentType: string
}

// The kubelet's buckets.
const DEF_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const POD_START_BUCKETS = [0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600]
const RUNTIME_OPERATION_BUCKETS = exponentialBuckets(0.005, 2.5, 14)

const CONTAINER_STATES: readonly RuntimeContainerState[] = ['created', 'running', 'exited', 'unknown']

/**
 * The kubelet's operation_type for a CRI call: `RunPodSandbox` → `run_podsandbox`,
 * `ListContainers` → `list_containers`, `PodSandboxStatus` → `podsandbox_status`.
 */
export function runtimeOperationType(rpc: string): string {
  return rpc
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/pod_sandbox/g, 'podsandbox')
}

export function createMetrics(): KubeNodeMetrics {
  const registry = new Registry()
  const registers = [registry]

  const podStart = new Histogram({
    name: 'kubelet_pod_start_duration_seconds',
    help: 'Duration in seconds from kube-node seeing a pod for the first time to the pod starting to run',
    buckets: POD_START_BUCKETS,
    registers,
  })
  const podWorker = new Histogram({
    name: 'kubelet_pod_worker_duration_seconds',
    help: 'Duration in seconds to sync a single pod. Broken down by operation type: create, update, sync or kill',
    labelNames: ['operation_type'],
    buckets: DEF_BUCKETS,
    registers,
  })
  const relistDuration = new Histogram({
    name: 'kubelet_pleg_relist_duration_seconds',
    help: 'Duration in seconds for relisting pods in PLEG.',
    buckets: DEF_BUCKETS,
    registers,
  })
  const relistInterval = new Histogram({
    name: 'kubelet_pleg_relist_interval_seconds',
    help: 'Interval in seconds between relisting in PLEG.',
    buckets: DEF_BUCKETS,
    registers,
  })
  const lastSeen = new Gauge({
    name: 'kubelet_pleg_last_seen_seconds',
    help: 'Timestamp in seconds when PLEG was last seen active.',
    registers,
  })
  const runtimeOps = new Counter({
    name: 'kubelet_runtime_operations_total',
    help: 'Cumulative number of runtime operations by operation type.',
    labelNames: ['operation_type'],
    registers,
  })
  const runtimeErrors = new Counter({
    name: 'kubelet_runtime_operations_errors_total',
    help: 'Cumulative number of runtime operation errors by operation type.',
    labelNames: ['operation_type'],
    registers,
  })
  const runtimeDuration = new Histogram({
    name: 'kubelet_runtime_operations_duration_seconds',
    help: 'Duration in seconds of runtime operations. Broken down by operation type.',
    labelNames: ['operation_type'],
    buckets: RUNTIME_OPERATION_BUCKETS,
    registers,
  })
  const runningPods = new Gauge({
    name: 'kubelet_running_pods',
    help: 'Number of pods that have a running pod sandbox',
    registers,
  })
  const runningContainers = new Gauge({
    name: 'kubelet_running_containers',
    help: 'Number of containers currently running',
    labelNames: ['container_state'],
    registers,
  })
  const syncErrors = new Counter({
    name: 'kube_node_sync_errors_total',
    help: 'Cumulative number of pod syncs that ended with an error.',
    registers,
  })
  const manifestErrors = new Gauge({
    name: 'kube_node_manifest_errors',
    help: 'Number of manifests of a source that could not be used at its last read.',
    labelNames: ['source'],
    registers,
  })

  let storeCounts: () => Record<StoreFile, number> = () => ({status: 0, events: 0})
  const counted: Record<StoreFile, number> = {status: 0, events: 0}
  new Counter({
    name: 'kube_node_store_writes_total',
    help: 'Cumulative number of files written by the status and event stores (at most one per pod and second each).',
    labelNames: ['file'],
    registers,
    collect() {
      const now = storeCounts()
      for (const file of STORE_FILES) {
        this.inc({file}, Math.max(0, now[file] - counted[file]))
        counted[file] = now[file]
      }
    },
  })

  // Series that exist from the start, so a scrape shows zeros instead of nothing.
  runningPods.set(0)
  for (const state of CONTAINER_STATES) runningContainers.set({container_state: state}, 0)
  syncErrors.inc(0)

  const setRunning = (pods: number, byState: Partial<Record<RuntimeContainerState, number>>): void => {
    runningPods.set(pods)
    for (const state of CONTAINER_STATES) runningContainers.set({container_state: state}, byState[state] ?? 0)
  }

  return {
    registry,
    contentType: registry.contentType,
    cri: {
      observe(operation, durationMs, error) {
        const operation_type = runtimeOperationType(operation)
        runtimeOps.inc({operation_type})
        runtimeDuration.observe({operation_type}, durationMs / 1000)
        if (error) runtimeErrors.inc({operation_type})
      },
    },
    pleg: {
      observeRelist(durationMs, intervalMs) {
        relistDuration.observe(durationMs / 1000)
        if (intervalMs !== undefined) relistInterval.observe(intervalMs / 1000)
      },
      setLastSeen(epochMs) {
        lastSeen.set(epochMs / 1000)
      },
      setRunning,
    },
    observePodStart: (seconds) => podStart.observe(seconds),
    observeWorker: (operation, seconds) => podWorker.observe({operation_type: operation}, seconds),
    setRunning,
    syncError: () => syncErrors.inc(),
    setManifestErrors: (source, n) => manifestErrors.set({source}, n),
    countStoreWrites: (counts) => {
      storeCounts = counts
    },
    text: () => registry.metrics(),
  }
}
