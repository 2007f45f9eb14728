// The generic PLEG (the kubelet's pleg/generic.go): relist the runtime every period into the
// shared runtime cache (runtime-cache.ts), turn the differences into pod lifecycle events, and
// report health for /healthz.
import type {RuntimeContainerState, RuntimePod} from '../kuberuntime/model.js'
import type {Clock} from '../util/clock.js'
import {errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import {diffRecords, recordsOf, type PlegRecords, type PodLifecycleEvent} from './events.js'
import type {RuntimeCache} from './runtime-cache.js'

export interface PlegOptions {
  /** Pause between the end of one relist and the start of the next: the kubelet's 1s. */
  periodMs: number
  /** Unhealthy when no relist succeeded for this long: the kubelet's 3 minutes. */
  unhealthyThresholdMs: number
}

export const DEFAULT_PLEG_OPTIONS: PlegOptions = {periodMs: 1000, unhealthyThresholdMs: 3 * 60_000}

/** Where the PLEG's observations go; metrics/pleg.ts implements it with Prometheus. */
export interface PlegMetrics {
  /** Every relist, failed ones included; `intervalMs` is the time since the previous successful relist started (undefined for the first). */
  observeRelist(durationMs: number, intervalMs: number | undefined): void
  /** After each successful relist: its end, in ms since the epoch. */
  setLastSeen(epochMs: number): void
  /** After each successful relist: pods with a ready sandbox, and containers by state. */
  setRunning?(pods: number, containersByState: Record<RuntimeContainerState, number>): void
}

/** At most this verbose for a relist error already logged once. */
const REPEATED_ERROR_VERBOSITY = 4

export class Pleg {
  private records: PlegRecords = new Map()
  private lastSuccessStart: number | undefined
  private lastSuccessEnd: number | undefined
  private lastError: string | undefined
  private loop: Promise<void> | undefined
  private abort: AbortController | undefined

  constructor(
    private readonly cache: RuntimeCache,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly opts: PlegOptions = DEFAULT_PLEG_OPTIONS,
    private readonly metrics?: PlegMetrics,
  ) {}

  /** Relists forever every periodMs until stop(); calls onEvents with the events of each relist (only when non-empty). */
  start(onEvents: (events: PodLifecycleEvent[]) => void): void {
    if (this.loop) return
    const abort = new AbortController()
    this.abort = abort
    this.loop = (async () => {
      while (!abort.signal.aborted) {
        const events = await this.relist()
        if (abort.signal.aborted) break
        if (events.length > 0) {
          try {
            onEvents(events)
          } catch (err) {
            this.logger.error('PLEG event handler failed', {error: errorMessage(err)})
          }
        }
        await this.clock.sleep(this.opts.periodMs, abort.signal)
      }
    })()
  }

  /** Stops the loop; resolves once the relist in progress (if any) has finished. */
  async stop(): Promise<void> {
    this.abort?.abort()
    await this.loop
    this.loop = undefined
    this.abort = undefined
  }

  /**
   * One relist now (used at start-up before the loop, and by tests). Returns the events. Never
   * rejects: a failed relist is logged, keeps the previous cache and returns no events.
   */
  relist(): Promise<PodLifecycleEvent[]> {
    return this.relistOnce()
  }

  /** Healthy when the last successful relist finished less than unhealthyThresholdMs ago. */
  healthy(now: number): {ok: boolean; reason?: string} {
    if (this.lastSuccessEnd === undefined) return {ok: false, reason: 'pleg has yet to be successful'}
    const elapsed = now - this.lastSuccessEnd
    if (elapsed >= this.opts.unhealthyThresholdMs) {
      return {
        ok: false,
        reason: `pleg was last seen active ${seconds(elapsed)} ago; threshold is ${seconds(this.opts.unhealthyThresholdMs)}`,
      }
    }
    return {ok: true}
  }

  private async relistOnce(): Promise<PodLifecycleEvent[]> {
    const start = this.clock.now()
    let pods: RuntimePod[]
    try {
      pods = await this.cache.refresh()
    } catch (err) {
      this.metrics?.observeRelist(this.clock.now() - start, undefined)
      this.logFailure(err)
      return []
    }
    const end = this.clock.now()
    const interval = this.lastSuccessStart === undefined ? undefined : start - this.lastSuccessStart
    this.metrics?.observeRelist(end - start, interval)
    this.metrics?.setLastSeen(end)
    if (this.lastError !== undefined) {
      this.logger.info('PLEG relist succeeded again', {previousError: this.lastError})
      this.lastError = undefined
    }

    const records = recordsOf(pods)
    const events = diffRecords(this.records, records)
    this.records = records
    this.lastSuccessStart = start
    this.lastSuccessEnd = end
    this.reportRunning(pods)
    if (events.length > 0 && this.logger.enabled(4)) {
      for (const e of events) this.logger.debug(4, 'PLEG event', {...e})
    }
    return events
  }

  // Once per distinct error at warning level; repeats only at higher verbosity.
  private logFailure(err: unknown): void {
    const message = errorMessage(err)
    if (message !== this.lastError) {
      this.logger.warn('PLEG relist failed; keeping the previous pod cache', {error: message})
      this.lastError = message
    } else {
      this.logger.debug(REPEATED_ERROR_VERBOSITY, 'PLEG relist failed again', {error: message})
    }
  }

  private reportRunning(pods: RuntimePod[]): void {
    if (!this.metrics?.setRunning) return
    const byState: Record<RuntimeContainerState, number> = {created: 0, running: 0, exited: 0, unknown: 0}
    let running = 0
    for (const p of pods) {
      if (p.sandboxes.some((s) => s.state === 'ready')) running++
      for (const c of p.containers) byState[c.state]++
    }
    this.metrics.setRunning(running, byState)
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 3)}s`
}
