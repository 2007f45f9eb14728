// Writes one small file per pod, only when its content changed and at most once per interval:
// a pod whose status changes every second (a crash loop, a flapping probe) costs one write per
// interval, and the last content is always written in the end (a trailing write, or flush()).
// A write that fails (a full disk) keeps its content and is tried again, at intervals that double
// up to a bound; the failure is logged once, and again only after a write has worked, so an outage
// of weeks costs a line per pod, not one per pod per second.
import type {Clock} from '../util/clock.js'
import {errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'

export interface RecordWriterOptions {
  clock: Clock
  logger: Logger
  /** Least time between two writes of one pod's file. */
  minIntervalMs: number
  /** Writes the text; it is already known to differ from what was written last. */
  write(uid: string, text: string): Promise<void>
  /** What a file of this kind is called in logs. */
  what: string
}

/** The longest wait before a failed write is tried again (the wait doubles per failure up to it). */
const MAX_RETRY_MS = 60_000

interface Entry {
  written?: string | undefined
  pending?: string | undefined
  lastWriteAt: number
  cancel?: (() => void) | undefined
  inflight?: Promise<void> | undefined
  /** Failed writes in a row (0: the last write worked). */
  failures: number
}

export class RecordWriter {
  private readonly entries = new Map<string, Entry>()
  private writes = 0

  constructor(private readonly opts: RecordWriterOptions) {}

  /** Files written so far (for /metrics and the benchmark). */
  writeCount(): number {
    return this.writes
  }

  /** Schedules `text` as the pod's content; unchanged content is never written again. */
  set(uid: string, text: string): void {
    const e = this.entries.get(uid) ?? {lastWriteAt: -Infinity, failures: 0}
    this.entries.set(uid, e)
    if (text === (e.pending ?? e.written)) return
    e.pending = text
    this.schedule(uid, e)
  }

  private schedule(uid: string, e: Entry): void {
    if (e.cancel || e.inflight || e.pending === undefined) return
    const wait = e.lastWriteAt + this.intervalAfter(e.failures) - this.opts.clock.now()
    if (wait <= 0) void this.writeNow(uid, e)
    else e.cancel = this.opts.clock.after(wait, () => void this.writeNow(uid, e))
  }

  /** Forgets a pod: nothing more is written for it once a write in progress has ended. */
  async forget(uid: string): Promise<void> {
    const e = this.entries.get(uid)
    this.entries.delete(uid)
    e?.cancel?.()
    await e?.inflight
  }

  /** Writes everything still pending now (before the process ends). */
  async flush(): Promise<void> {
    for (const [uid, e] of this.entries) {
      await e.inflight
      e.cancel?.()
      e.cancel = undefined
      if (e.pending !== undefined) await this.writeNow(uid, e)
    }
  }

  private intervalAfter(failures: number): number {
    if (failures === 0) return this.opts.minIntervalMs
    return Math.min(MAX_RETRY_MS, Math.max(1, this.opts.minIntervalMs) * 2 ** Math.min(failures, 30))
  }

  private writeNow(uid: string, e: Entry): Promise<void> {
    e.cancel = undefined
    const text = e.pending
    if (text === undefined) return Promise.resolve()
    e.pending = undefined
    e.lastWriteAt = this.opts.clock.now()
    e.inflight = this.opts
      .write(uid, text)
      .then(() => {
        e.written = text
        this.writes++
        if (e.failures > 0) this.opts.logger.info(`Writing the pod's ${this.opts.what} works again`, {uid, failedWrites: e.failures})
        e.failures = 0
      })
      .catch((err: unknown) => {
        if (e.failures === 0) this.opts.logger.warn(`Could not write the pod's ${this.opts.what}; trying again, quietly until it works`, {uid, err: errorMessage(err)})
        e.failures++
        // Still to be written, unless something newer came meanwhile.
        e.pending ??= text
      })
      .finally(() => {
        e.inflight = undefined
        // What came while writing waits for the next interval.
        if (this.entries.get(uid) === e) this.schedule(uid, e)
      })
    return e.inflight
  }
}
