// The kubelet eviction manager's emptyDir rule (pkg/kubelet/eviction, emptyDirLimitEviction): a
// pod whose emptyDir on disk holds more than its sizeLimit is evicted, killed at once and Failed
// for good with reason Evicted. Memory emptyDirs are tmpfs mounts with size=, so the kernel
// enforces their limit and they are never measured. Pure: the measure is the caller's effect.
import type {PodSpec} from '../api/types.js'
import {quantityValue} from '../util/quantity.js'

export const EVICTED_REASON = 'Evicted'

/** An emptyDir to measure: its name, its limit in bytes and the limit as the manifest wrote it. */
export interface EmptyDirLimit {
  name: string
  limitBytes: number
  limit: string
}

export interface Eviction {
  reason: typeof EVICTED_REASON
  message: string
}

/** The emptyDirs on disk with a positive sizeLimit, in spec order: the only ones worth a measure. */
export function emptyDirLimits(spec: PodSpec): EmptyDirLimit[] {
  const limits: EmptyDirLimit[] = []
  for (const v of spec.volumes ?? []) {
    const ed = v.emptyDir
    if (!ed || ed.medium === 'Memory' || ed.sizeLimit === undefined || ed.sizeLimit === null) continue
    // Validation accepted the quantity; the kubelet ignores a zero limit (size.Sign() == 1).
    const limitBytes = quantityValue(ed.sizeLimit)
    if (limitBytes > 0) limits.push({name: v.name, limitBytes, limit: String(ed.sizeLimit)})
  }
  return limits
}

/**
 * The eviction the usage calls for, or undefined. `usedBytes` maps a volume name to what a
 * measure found (a lower bound when the measure stopped early, which still proves an excess);
 * a volume not measured is never evicted for. The first volume over its limit, in spec order,
 * names the message, as the kubelet's loop over pod.Spec.Volumes does. The message is the
 * kubelet's emptyDirMessageFmt without its trailing space (kept there for text appended after
 * it), with the limit as the manifest wrote it (the kubelet prints the canonical quantity, the
 * same for the usual "1Mi", "500Mi", "2Gi").
 */
export function emptyDirEviction(limits: readonly EmptyDirLimit[], usedBytes: ReadonlyMap<string, number>): Eviction | undefined {
  for (const l of limits) {
    const used = usedBytes.get(l.name)
    if (used !== undefined && used > l.limitBytes) {
      return {reason: EVICTED_REASON, message: `Usage of EmptyDir volume ${JSON.stringify(l.name)} exceeds the limit ${JSON.stringify(l.limit)}.`}
    }
  }
  return undefined
}
