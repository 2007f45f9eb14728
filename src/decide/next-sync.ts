// When `watch` syncs a pod next, after a sync (the kubelet's pod workers requeue it the same way):
// when the first backed-off container may start again; else after the error back-off if the sync
// failed; else after the resync period. Both periods get a jitter of [1, 1.5) × the period, so
// pods spread out. The pod's active deadline brings the sync forward to the moment it passes (the
// kubelet's activeDeadlineHandler). Pure: the time and the random draw come in.

export interface NextSyncInput {
  now: number
  /** When each container held by a back-off may start again. */
  backOffUntil: readonly number[]
  /** A step of the sync failed, or the sync itself did. */
  failed: boolean
  /** When the pod's active deadline passes, if it has one. */
  deadline?: number | undefined
  resyncIntervalMs: number
  errorBackOffMs: number
  /** A uniform draw in [0, 1) for the jitter. */
  random: number
}

export function nextSyncAt(i: NextSyncInput): number {
  const jittered = (ms: number): number => ms + i.random * 0.5 * ms
  const due = i.backOffUntil.length > 0 ? Math.min(...i.backOffUntil) : i.now + jittered(i.failed ? i.errorBackOffMs : i.resyncIntervalMs)
  return i.deadline !== undefined && i.deadline > i.now ? Math.min(due, i.deadline) : due
}
