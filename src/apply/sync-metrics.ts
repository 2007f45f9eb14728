// What the sync steps tell whoever counts them (metrics/sync.ts, as the kubelet's
// kubelet_started_pods_total, kubelet_started_containers_total and
// kubelet_image_pull_duration_seconds). The core stays free of any metrics library: this is
// all it knows.
import type {ContainerType} from '../kuberuntime/model.js'

export interface SyncMetrics {
  /** A sandbox was created for a pod (or creating one failed). */
  podStarted(failed: boolean): void
  /** A container start was attempted; `errorCode` is the waiting reason when it failed (`RunContainerError`, `ErrImagePull`, …). */
  containerStarted(type: ContainerType, errorCode?: string): void
  /** An image was pulled, in `seconds`; `sizeBytes` 0 when the runtime did not say. */
  imagePulled(seconds: number, sizeBytes: number): void
}
