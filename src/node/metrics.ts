// kube-node's Prometheus metrics for `watch`'s /metrics, under the kubelet's names and buckets
// (pkg/kubelet/metrics/metrics.go) where the kubelet has the metric, so existing dashboards and
// alerts work. Its own registry, never prom-client's global one, so several nodes (tests) coexist.
import {Counter, Gauge, Histogram, Registry, exponentialBuckets} from 'prom-client'
import type {CriMetrics} from '../cri/instrumented.js'
import type {RuntimeContainerState} from '../kuberuntime/model.js'
import type {PlegMetrics} from '../pleg/relist.js'
import type {SyncMetrics} from '../apply/sync-metrics.js'
import type {ContainerType} from '../kuberuntime/model.js'
import {countPods, type PodCounts} from '../loop/pod-counts.js'
import {BUILD_INFO_LABELS, buildInfo} from './build-info.js'

export type WorkerOperation = 'create' | 'update' | 'sync' | 'kill'

const STORE_FILES = ['status', 'events'] as const
export type StoreFile = (typeof STORE_FILES)[number]

export interface KubeNodeMetrics {
  readonly registry: Registry
  /** For cri/instrumented.ts: kubelet_runtime_operations_*. */
  readonly cri: CriMetrics
  /** For pleg/relist.ts: kubelet_pleg_*, and the running pods/containers gauges. */
  readonly pleg: PlegMetrics
  /** For the sync steps: kubelet_started_pods_*, kubelet_started_containers_*, kubelet_image_pull_duration_seconds. */
  readonly sync: SyncMetrics
  /** A pod started again under the same UID after its kill. */
  podRestarted(): void
  /** Where kubelet_desired_pods, kubelet_active_pods and kubelet_working_pods come from, read at each scrape. */
  countPods(counts: () => PodCounts): void
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
const IMAGE_PULL_BUCKETS = [1, 5, 10, 20, 30, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600]

const MIB = 1024 * 1024
const GIB = 1024 * MIB
/** The kubelet's image_size_in_bytes label: the range an image's size falls in (lower bounds exclusive). */
const IMAGE_SIZE_RANGES: readonly (readonly [number, string])[] = [
  [100 * GIB, 'GT100GB'],
  [60 * GIB, '60GB-100GB'],
  [40 * GIB, '40GB-60GB'],
  [30 * GIB, '30GB-40GB'],
  [20 * GIB, '20GB-30GB'],
  [10 * GIB, '10GB-20GB'],
  [5 * GIB, '5GB-10GB'],
  [1 * GIB, '1GB-5GB'],
  [500 * MIB, '500MB-1GB'],
  [100 * MIB, '100MB-500MB'],
  [10 * MIB, '10MB-100MB'],
  [0, '0-10MB'],
]

/** `image_size_in_bytes` for an image of `bytes` (`N/A` when the size is unknown), as the kubelet labels pulls. */
export function imageSizeBucket(bytes: number): string {
  if (!(bytes > 0)) return 'N/A'
  return IMAGE_SIZE_RANGES.find(([lower]) => bytes > lower)?.[1] ?? 'N/A'
}

/** The kubelet's container_type label. Sidecars are init containers there too. */
export function containerTypeLabel(type: ContainerType): string {
  return type === 'regular' ? 'container' : 'init_container'
}

/** Every kube-node pod is a static pod: not from an API server. */
const STATIC = 'true'

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

export interface MetricsOptions {
  /** kube-node's version, for kubernetes_build_info. */
  version?: string
}

export function createMetrics(opts: MetricsOptions = {}): KubeNodeMetrics {
  const registry = new Registry()
  const registers = [registry]
  const kubelet = kubeletSyncMetrics(registers)
  new Gauge({
    name: 'kubernetes_build_info',
    help: "A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.",
    labelNames: BUILD_INFO_LABELS,
    registers,
  }).set(buildInfo(opts.version ?? '0.0.0', process.version, process.platform, process.arch), 1)

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
      observeRunPodSandbox: kubelet.observeRunPodSandbox,
    },
    sync: kubelet.sync,
    podRestarted: kubelet.podRestarted,
    countPods: kubelet.countPods,
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

/**
 * The kubelet's pod and container start counters, image pulls, sandbox creation times and pod
 * counts (pkg/kubelet/metrics/metrics.go), on `registers`.
 */
function kubeletSyncMetrics(registers: Registry[]): Pick<KubeNodeMetrics, 'sync' | 'podRestarted' | 'countPods'> & Required<Pick<CriMetrics, 'observeRunPodSandbox'>> {
  const startedPods = new Counter({name: 'kubelet_started_pods_total', help: 'Cumulative number of pods started', registers})
  const startedPodErrors = new Counter({name: 'kubelet_started_pods_errors_total', help: 'Cumulative number of errors when starting pods', registers})
  const startedContainers = new Counter({name: 'kubelet_started_containers_total', help: 'Cumulative number of containers started', labelNames: ['container_type'], registers})
  const startedContainerErrors = new Counter({
    name: 'kubelet_started_containers_errors_total',
    help: 'Cumulative number of errors when starting containers',
    labelNames: ['container_type', 'code'],
    registers,
  })
  const restartedPods = new Counter({
    name: 'kubelet_restarted_pods_total',
    help: 'Number of pods that have been restarted because they were deleted and recreated with the same UID while the kubelet was watching them (common for static pods, extremely uncommon for API pods)',
    labelNames: ['static'],
    registers,
  })
  const imagePull = new Histogram({
    name: 'kubelet_image_pull_duration_seconds',
    help: 'Duration in seconds to pull an image.',
    labelNames: ['image_size_in_bytes'],
    buckets: IMAGE_PULL_BUCKETS,
    registers,
  })
  const runSandbox = new Histogram({
    name: 'kubelet_run_podsandbox_duration_seconds',
    help: 'Duration in seconds of the run_podsandbox operations. Broken down by RuntimeClass.Handler.',
    labelNames: ['runtime_handler'],
    buckets: DEF_BUCKETS,
    registers,
  })
  const runSandboxErrors = new Counter({
    name: 'kubelet_run_podsandbox_errors_total',
    help: 'Cumulative number of the run_podsandbox operation errors by RuntimeClass.Handler.',
    labelNames: ['runtime_handler'],
    registers,
  })

  // Read at each scrape, from the loop's own state: nothing to keep in step. The kubelet also
  // reports static="false"; here it is always 0.
  let counts: () => PodCounts = () => countPods([], [])
  new Gauge({
    name: 'kubelet_desired_pods',
    help: 'The number of pods the kubelet is being instructed to run. static is true if the pod is not from the apiserver.',
    labelNames: ['static'],
    registers,
    collect() {
      this.set({static: STATIC}, counts().desired)
      this.set({static: 'false'}, 0)
    },
  })
  new Gauge({
    name: 'kubelet_active_pods',
    help: 'The number of pods the kubelet considers active and which are being considered when admitting new pods. static is true if the pod is not from the apiserver.',
    labelNames: ['static'],
    registers,
    collect() {
      this.set({static: STATIC}, counts().active)
      this.set({static: 'false'}, 0)
    },
  })
  new Gauge({
    name: 'kubelet_working_pods',
    help: 'Number of pods the kubelet is actually running, broken down by lifecycle phase, whether the pod is desired, orphaned, or runtime only (also orphaned), and whether the pod is static. An orphaned pod has been removed from local configuration or force deleted in the API and consumes resources that are not otherwise visible.',
    labelNames: ['lifecycle', 'config', 'static'],
    registers,
    collect() {
      for (const w of counts().working) {
        this.set({lifecycle: w.lifecycle, config: w.config, static: STATIC}, w.count)
        this.set({lifecycle: w.lifecycle, config: w.config, static: 'false'}, 0)
      }
    },
  })

  // Series that exist from the start, so a scrape shows zeros instead of nothing.
  startedPods.inc(0)
  startedPodErrors.inc(0)
  for (const t of ['container', 'init_container']) startedContainers.inc({container_type: t}, 0)
  restartedPods.inc({static: STATIC}, 0)

  return {
    sync: {
      podStarted(failed) {
        startedPods.inc()
        if (failed) startedPodErrors.inc()
      },
      containerStarted(type, errorCode) {
        const container_type = containerTypeLabel(type)
        startedContainers.inc({container_type})
        if (errorCode !== undefined) startedContainerErrors.inc({container_type, code: errorCode})
      },
      imagePulled(seconds, sizeBytes) {
        imagePull.observe({image_size_in_bytes: imageSizeBucket(sizeBytes)}, seconds)
      },
    },
    podRestarted: () => restartedPods.inc({static: STATIC}),
    countPods: (source) => {
      counts = source
    },
    observeRunPodSandbox(runtimeHandler, durationMs, error) {
      runSandbox.observe({runtime_handler: runtimeHandler}, durationMs / 1000)
      if (error) runSandboxErrors.inc({runtime_handler: runtimeHandler})
    },
  }
}
