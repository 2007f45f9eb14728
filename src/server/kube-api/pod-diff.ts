// What changed between two snapshots of the pods, keyed by UID: the ADDED/MODIFIED/DELETED of a
// watch. A pod whose content (apart from its resourceVersion) is unchanged is not an event. Pure.
import type {Pod} from '../../api/types.js'

export interface Snapshot {
  pod: Pod
  /** The pod's content, compared between snapshots. */
  key: string
}

export interface PodChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED'
  uid: string
  /** The pod now (DELETED: as it was last seen). */
  pod: Pod
  /** The pod before (MODIFIED, DELETED). */
  previous?: Pod
}

export function uidOf(pod: Pod): string {
  return pod.metadata?.uid ?? `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`
}

export function snapshotOf(pods: readonly Pod[]): Map<string, Snapshot> {
  return new Map(pods.map((pod) => [uidOf(pod), {pod, key: JSON.stringify(pod)}]))
}

export function diffPods(before: ReadonlyMap<string, Snapshot>, after: ReadonlyMap<string, Snapshot>): PodChange[] {
  const changes: PodChange[] = []
  for (const [uid, now] of after) {
    const was = before.get(uid)
    if (!was) changes.push({type: 'ADDED', uid, pod: now.pod})
    else if (was.key !== now.key) changes.push({type: 'MODIFIED', uid, pod: now.pod, previous: was.pod})
  }
  for (const [uid, was] of before) if (!after.has(uid)) changes.push({type: 'DELETED', uid, pod: was.pod, previous: was.pod})
  return changes
}
