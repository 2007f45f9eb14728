// Per-container back-off, as the kubelet's flowcontrol.Backoff: the delay starts at 10s, doubles
// up to 5m, and is forgotten once the container has run for longer than twice the maximum
// without a new failure (kubelet: containers that ran 10 minutes reset their back-off).
import type {BackOffEntry} from '../decide/actions.js'
import {formatGoDuration} from '../util/go-duration.js'

export const INITIAL_BACKOFF_MS = 10_000
export const MAX_BACKOFF_MS = 300_000

interface Entry {
  delayMs: number
  lastFailure: number
  reason: BackOffEntry['reason']
  /** The failure's message (a pull error), repeated while the back-off lasts. */
  lastError?: string | undefined
  /** Taken over from another process: the end it recorded, whatever the exit it counts from. */
  fixedUntil?: number | undefined
}

export class BackOff {
  private readonly entries = new Map<string, Entry>()

  constructor(
    private readonly initialMs = INITIAL_BACKOFF_MS,
    private readonly maxMs = MAX_BACKOFF_MS,
  ) {}

  /** Records a failure of `key` at `now` and returns the time it may be retried. */
  next(key: string, now: number, reason: BackOffEntry['reason'], lastError?: string): number {
    const e = this.entries.get(key)
    const fresh = !e || now - e.lastFailure > 2 * this.maxMs
    const delayMs = fresh ? this.initialMs : Math.min(e.delayMs * 2, this.maxMs)
    this.entries.set(key, {delayMs, lastFailure: now, reason, lastError})
    return now + delayMs
  }

  /**
   * The active back-off of `key` at `now`, if any. `since` is when the container last exited: the
   * kubelet waits the current delay from that exit (IsInBackOffSince), not from the restart.
   */
  get(key: string, now: number, since?: number): BackOffEntry | undefined {
    const e = this.entries.get(key)
    if (!e) return undefined
    // An exit long after the last failure (the container ran for a while) starts afresh.
    if (since !== undefined && since - e.lastFailure > 2 * this.maxMs) return undefined
    const until = e.fixedUntil ?? (since ?? e.lastFailure) + e.delayMs
    if (until <= now) return undefined
    const what = e.reason === 'CrashLoopBackOff' ? 'restarting failed container' : 'pulling image'
    // Whole seconds in Go's form, as the kubelet prints its delays: 10s … 1m20s … 5m0s.
    return {until, reason: e.reason, message: `back-off ${formatGoDuration(Math.ceil(e.delayMs / 1000) * 1000)} ${what}`, ...(e.lastError !== undefined ? {lastError: e.lastError} : {})}
  }

  /**
   * Takes over a back-off another process was keeping (from its status record): `key` may be
   * retried at `until`, and a failure after that doubles from the time left.
   */
  restore(key: string, until: number, now: number, reason: BackOffEntry['reason']): void {
    if (until <= now || this.entries.has(key)) return
    const delayMs = Math.min(Math.max(until - now, this.initialMs), this.maxMs)
    this.entries.set(key, {delayMs, lastFailure: until - delayMs, reason, fixedUntil: until})
  }

  reset(key: string): void {
    this.entries.delete(key)
  }

  /**
   * Forgets every entry that `next` would treat as fresh anyway (no failure for twice the maximum
   * delay), as the kubelet's Backoff.GC does: a long `watch` must not keep every container it
   * ever saw fail.
   */
  gc(now: number): void {
    for (const [key, e] of this.entries) if (now - e.lastFailure > 2 * this.maxMs) this.entries.delete(key)
  }

  /** How many entries are kept (for tests and metrics). */
  get size(): number {
    return this.entries.size
  }
}
