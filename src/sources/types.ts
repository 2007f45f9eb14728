// What a manifest source hands to the pod-config merge: always the full current set, never a
// delta (the kubelet's SET), so a missed event can never leave a stale pod behind.
import type {ConfigMap, Secret, StaticPod} from '../api/types.js'
import type {FieldIssue} from '../util/errors.js'

export interface SourceSnapshot {
  /** Source name, e.g. `file:/etc/kubernetes/manifests` or `http:https://host/path` (URL without query/userinfo). */
  source: string
  /** The full current set (last good version per file for files that are now broken). */
  pods: StaticPod[]
  /** Problems of this source right now (broken files keep their last good pods but are listed here). */
  issues: FieldIssue[]
  /**
   * Whether `pods` stands for everything the source defines: false while a file or the URL has
   * never been read and decoded successfully (its pods are unknown, not absent). Only a complete
   * snapshot makes the source "ready", so a pod is never deleted because of a broken manifest
   * after a restart. Absent means true.
   */
  complete?: boolean
  /** ConfigMaps and Secrets defined beside the pods (last good version per location). */
  configMaps?: ConfigMap[]
  secrets?: Secret[]
}

export interface ManifestSource {
  readonly name: string
  /** Starts producing snapshots; the first one comes as soon as the first read finished (also for an empty/missing dir: empty snapshot). */
  start(emit: (s: SourceSnapshot) => void): void
  /** Stops timers/watchers; resolves when no more emits will happen. */
  stop(): Promise<void>
}
