// When a pod from a new snapshot differs from the stored one in a way the pod workers must act
// on (the kubelet's checkAndUpdatePod). Pure.
import type {Pod, StaticPod} from '../api/types.js'
import {CONFIG_HASH_ANNOTATION, CONFIG_SEEN_ANNOTATION, CONFIG_SOURCE_ANNOTATION} from '../manifest/defaults.js'
import {canonicalJson} from '../util/hash.js'

export const CONFIG_MIRROR_ANNOTATION = 'kubernetes.io/config.mirror'

/**
 * Annotations the node sets itself; a change in them is never a change of the pod (the config
 * hash follows the content, whose own changes are compared).
 */
export const LOCAL_ANNOTATIONS: readonly string[] = [CONFIG_SEEN_ANNOTATION, CONFIG_SOURCE_ANNOTATION, CONFIG_MIRROR_ANNOTATION, CONFIG_HASH_ANNOTATION]

/** Spec, labels, deletion fields or non-local annotations differ: an UPDATE. */
export function semanticallyDiffers(a: Pod, b: Pod): boolean {
  return canonicalJson(semanticView(a)) !== canonicalJson(semanticView(b))
}

/** Nothing semantic differs, but what is stored is stale (status, or the file it came from): a RECONCILE. */
export function needsReconcile(a: StaticPod, b: StaticPod): boolean {
  return canonicalJson([a.pod.status, a.source]) !== canonicalJson([b.pod.status, b.source])
}

function semanticView(pod: Pod): unknown {
  const annotations = {...pod.metadata?.annotations}
  for (const key of LOCAL_ANNOTATIONS) delete annotations[key]
  return {
    spec: pod.spec,
    // Missing and empty maps mean the same.
    labels: pod.metadata?.labels ?? {},
    annotations,
    deletionTimestamp: pod.metadata?.deletionTimestamp,
    deletionGracePeriodSeconds: pod.metadata?.deletionGracePeriodSeconds,
  }
}

/** RFC 3339 with exactly nine fraction digits, in UTC: the kubelet's `RFC3339NanoFixed`. */
export function rfc3339NanoFixed(epochMs: number): string {
  const whole = Math.floor(epochMs)
  const subMsNanos = Math.min(999_999, Math.round((epochMs - whole) * 1e6))
  const iso = new Date(whole).toISOString() // 2006-01-02T15:04:05.000Z
  return `${iso.slice(0, 23)}${String(subMsNanos).padStart(6, '0')}Z`
}
