// A pod change as one client's watch sees it through its filter: a pod that starts matching is
// ADDED, one that stops matching is DELETED, as the API server's filtered watch does. Pure.
import type {Pod} from '../../api/types.js'
import type {PodChange} from './pod-diff.js'

export type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED'

export function watchEventFor(change: PodChange, matches: (pod: Pod) => boolean): {type: WatchType; pod: Pod} | undefined {
  const before = change.previous !== undefined && matches(change.previous)
  if (change.type === 'DELETED') return before ? {type: 'DELETED', pod: change.pod} : undefined
  const now = matches(change.pod)
  if (change.type === 'ADDED') return now ? {type: 'ADDED', pod: change.pod} : undefined
  if (now) return {type: before ? 'MODIFIED' : 'ADDED', pod: change.pod}
  return before ? {type: 'DELETED', pod: change.pod} : undefined
}
