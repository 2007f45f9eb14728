// When `watch` tells systemd it is ready (CLI.md `--notify-ready`), and what status line it shows.
// Pure: the caller says whether the first full sync is done and gives every desired pod's status.
import type {PodStatus} from '../api/types.js'

/** `all`: every pod at its goal (Running and Ready, or finished); `started`: every pod started. */
export type NotifyReadyMode = 'all' | 'started'

/**
 * The longest `watch` waits before READY=1, whatever the pods do (`--notify-ready-timeout` may
 * shorten it). Well under the shipped unit's TimeoutStartSec (5min; a unit test holds them apart): a
 * pod that never becomes Ready must not have systemd kill and restart the daemon (Restart=always)
 * and fail its Requires= dependents.
 * From then on the pods' state is only in STATUS=.
 */
export const READY_WAIT_LIMIT_MS = 60_000

export interface ReadinessInput {
  mode: NotifyReadyMode
  /** Every source delivered a snapshot and every pod from them was synced at least once. */
  firstSyncDone: boolean
  /** The last computed status of every desired pod (undefined: not synced yet). */
  pods: readonly (PodStatus | undefined)[]
  /** How long `watch` has waited for readiness so far. */
  waitedMs: number
  /** READY=1 once this much has passed, ready or not (at most READY_WAIT_LIMIT_MS). */
  limitMs: number
}

export interface Readiness {
  ready: boolean
  /** systemd's STATUS= text, e.g. `3/4 pods ready`. */
  status: string
  /** Why the node is (not) ready, for the log. */
  reason: string
  /** Ready only because the wait limit passed: some pods are not at their goal. */
  limitReached: boolean
}

const finished = (s: PodStatus): boolean => s.phase === 'Succeeded' || s.phase === 'Failed'

function atGoal(s: PodStatus | undefined, mode: NotifyReadyMode): boolean {
  if (!s) return false
  if (finished(s)) return true
  if (mode === 'started') {
    const cs = s.containerStatuses ?? []
    return cs.length > 0 && cs.every((c) => Boolean(c.containerID))
  }
  return s.phase === 'Running' && s.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true
}

export function readiness(input: ReadinessInput): Readiness {
  const total = input.pods.length
  const done = input.pods.filter((s) => atGoal(s, input.mode)).length
  const word = input.mode === 'all' ? 'ready' : 'started'
  const counts = `${done}/${total} pods ${word}`
  const status = input.firstSyncDone ? counts : `${counts} (first sync in progress)`
  const waiting = !input.firstSyncDone ? 'the first sync of every source and pod is not done yet' : done < total ? `${total - done} of ${total} pods not ${word} yet` : undefined
  if (waiting === undefined) {
    return {ready: true, status, reason: total === 0 ? 'no pods to wait for' : `every pod is ${input.mode === 'all' ? 'Running and Ready, or finished' : 'started, or finished'}`, limitReached: false}
  }
  const limitMs = Math.min(Math.max(0, input.limitMs), READY_WAIT_LIMIT_MS)
  if (input.waitedMs >= limitMs) return {ready: true, status, reason: `waited ${formatSeconds(limitMs)}, the longest kube-node waits: ${waiting}`, limitReached: true}
  return {ready: false, status, reason: waiting, limitReached: false}
}

const formatSeconds = (ms: number): string => `${Math.round(ms / 1000)}s`

/**
 * How often to send WATCHDOG=1: half of WATCHDOG_USEC (sd_watchdog_enabled(3)), and only when the
 * watchdog is meant for this process (WATCHDOG_PID unset or ours). Undefined: no watchdog.
 */
export function watchdogIntervalMs(env: {WATCHDOG_USEC?: string | undefined; WATCHDOG_PID?: string | undefined}, pid: number): number | undefined {
  const usec = Number(env.WATCHDOG_USEC)
  if (!env.WATCHDOG_USEC || !Number.isSafeInteger(usec) || usec <= 0) return undefined
  if (env.WATCHDOG_PID !== undefined && env.WATCHDOG_PID !== '' && Number(env.WATCHDOG_PID) !== pid) return undefined
  // Bounded both ways: a timer beyond 2^31-1 ms fires every millisecond instead (Node's
  // TimeoutOverflowWarning), and each ping runs a helper process, so a tiny or huge WATCHDOG_USEC
  // would have `watch` spawn one per millisecond. No real WatchdogSec= is below 200 ms.
  return Math.min(MAX_WATCHDOG_MS, Math.max(MIN_WATCHDOG_MS, Math.floor(usec / 2000)))
}

/** The shortest and longest ping intervals (see watchdogIntervalMs). */
export const MIN_WATCHDOG_MS = 100
export const MAX_WATCHDOG_MS = 2 ** 31 - 1
