// The sync steps' families: the kubelet's pod and container start counters, pod restarts and
// image pulls (pkg/kubelet/metrics/metrics.go), fed by apply/ through SyncMetrics.
import {Counter, Histogram, type Registry} from 'prom-client'
import type {SyncMetrics} from '../apply/sync-metrics.js'
import type {ContainerType} from '../kuberuntime/model.js'
import {IMAGE_PULL_BUCKETS, STATIC} from './buckets.js'

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

export interface SyncStepMetrics {
  readonly sync: SyncMetrics
  /** A pod started again under the same UID after its kill. */
  podRestarted(): void
}

export function syncMetrics(registers: Registry[]): SyncStepMetrics {
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
  }
}
