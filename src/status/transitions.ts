// Conditions carry lastTransitionTime: the time their status last changed, kept from the
// previous status while it holds (the kubelet's status manager). Pure.
import type {PodStatus} from '../api/types.js'
import {rfc3339} from './container-status.js'

export function withTransitionTimes(previous: PodStatus | undefined, next: PodStatus, now: number): PodStatus {
  if (!next.conditions) return next
  const conditions = next.conditions.map((c) => {
    const before = previous?.conditions?.find((p) => p.type === c.type)
    const since = before && before.status === c.status ? before.lastTransitionTime : undefined
    const at = since ?? rfc3339(now)
    return at === undefined ? c : {...c, lastTransitionTime: at}
  })
  return {...next, conditions}
}
