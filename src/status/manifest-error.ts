// A pod whose manifest stopped validating under `watch`: the last good version keeps running, and
// every reader says so (get's STATUS, describe's Reason and condition, kubectl through the API),
// not only the daemon's log. Pure.
import type {Pod, PodCondition, StaticPod} from '../api/types.js'
import {formatIssue, type FieldIssue} from '../util/errors.js'
import {rfc3339} from './container-status.js'

/** STATUS and status.reason of such a pod (a container's own reason, or the phase's, still comes first). */
export const MANIFEST_ERROR_REASON = 'ManifestError'
/** The condition that kubectl describe and `get -o yaml` show: False while the manifest is invalid. */
export const MANIFEST_VALID_CONDITION = 'kube-node.io/ManifestValid'
/** Annotation with the manifest's problems (on /pods and every reader's pod). */
export const MANIFEST_ERROR_ANNOTATION = 'kube-node.io/manifest-error'

export interface ManifestErrorNote {
  /** Each problem as validate prints it (file, document, field), joined by `; `. */
  message: string
  /** Since when (ms since the epoch). */
  at: number
}

/** The problems of each desired pod's manifest location, by pod uid; pods whose manifest is fine are absent. */
export function manifestErrorsByPod(pods: readonly StaticPod[], issues: readonly FieldIssue[]): Map<string, {sp: StaticPod; message: string}> {
  const out = new Map<string, {sp: StaticPod; message: string}>()
  for (const sp of pods) {
    const broken = issues.filter((i) => i.location === sp.source.location)
    if (broken.length > 0) out.set(sp.pod.metadata.uid, {sp, message: [...new Set(broken.map(formatIssue))].join('; ')})
  }
  return out
}

/** The sentence of the Warning event and of status.message. */
export function manifestErrorMessage(message: string): string {
  return `the manifest is invalid; the last good version keeps running: ${message}`
}

/** The pod as readers show it while its manifest is invalid. */
export function withManifestError(pod: Pod, note: ManifestErrorNote): Pod {
  const status = {...(pod.status ?? {})}
  const text = manifestErrorMessage(note.message)
  // A reason the pod already has (Evicted, DeadlineExceeded, StartAfter) says more about it.
  if (!status.reason) {
    status.reason = MANIFEST_ERROR_REASON
    status.message = text
  }
  const condition: PodCondition = {type: MANIFEST_VALID_CONDITION, status: 'False', reason: MANIFEST_ERROR_REASON, message: text}
  const since = rfc3339(note.at)
  if (since) condition.lastTransitionTime = since
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== MANIFEST_VALID_CONDITION), condition]
  const annotations = {...(pod.metadata?.annotations ?? {}), [MANIFEST_ERROR_ANNOTATION]: note.message}
  return {...pod, metadata: {...pod.metadata, annotations}, status}
}
