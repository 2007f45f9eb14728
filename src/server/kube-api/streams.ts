// Long-lived responses (watches, log reads with or without follow) open at once: counted together
// against one limit, each ended when its client goes away, when it has run its time, when a watch
// has had nothing to say for too long, or when the server stops. When every slot is taken, the
// stream that has been quiet longest (at least STREAM_EVICT_IDLE_MS) is ended to make room, so
// idle connections cannot lock every other client out: a watch client watches again from its
// resourceVersion, as after the API server's timeoutSeconds.
import type {ServerResponse} from 'node:http'

/** Above this many unsent bytes a stream's client is too slow: a watch ends (it may watch again). */
export const MAX_PENDING_BYTES = 1024 * 1024
/** A full table ends a stream quiet for at least this long to make room for a new one. */
export const STREAM_EVICT_IDLE_MS = 5_000
/** How often quiet streams are looked for. */
const IDLE_SWEEP_MS = 1_000

export interface StreamOptions {
  /** The stream ends after this long. */
  maxMs: number
  /** The stream ends after this long without activity (touch); absent: never for quiet. */
  idleMs?: number
}

export interface StreamSlot {
  /** Aborts when the stream must end. */
  signal: AbortSignal
  /** The stream did something (sent an event, wrote a line). */
  touch(): void
}

interface Open {
  ac: AbortController
  lastActive: number
  idleMs: number | undefined
}

export class Streams {
  private readonly open = new Set<Open>()
  private sweeper: NodeJS.Timeout | undefined

  constructor(
    private readonly max: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.open.size
  }

  /**
   * A slot whose signal aborts when the client goes away, after `maxMs`, after `idleMs` without
   * a touch, on eviction or on closeAll; undefined when every slot is busy.
   */
  acquire(res: ServerResponse, opts: StreamOptions): StreamSlot | undefined {
    if (this.open.size >= this.max && !this.evictQuietest()) return undefined
    const ac = new AbortController()
    const s: Open = {ac, lastActive: this.now(), idleMs: opts.idleMs}
    this.open.add(s)
    const timer = setTimeout(() => ac.abort(), opts.maxMs)
    const done = (): void => {
      clearTimeout(timer)
      this.open.delete(s)
      if (this.open.size === 0) this.stopSweeping()
      ac.abort()
    }
    ac.signal.addEventListener('abort', done, {once: true})
    // The response's close (not the request's, which closes once its body is read) marks the
    // end of the connection or of the response.
    res.once('close', done)
    if (opts.idleMs !== undefined) this.sweeper ??= setInterval(() => this.sweep(), IDLE_SWEEP_MS).unref()
    return {signal: ac.signal, touch: () => (s.lastActive = this.now())}
  }

  closeAll(): void {
    for (const s of [...this.open]) s.ac.abort()
    this.stopSweeping()
  }

  private evictQuietest(): boolean {
    const t = this.now()
    let quietest: Open | undefined
    for (const s of this.open) if (t - s.lastActive >= STREAM_EVICT_IDLE_MS && (!quietest || s.lastActive < quietest.lastActive)) quietest = s
    quietest?.ac.abort()
    return quietest !== undefined
  }

  private sweep(): void {
    const t = this.now()
    for (const s of [...this.open]) if (s.idleMs !== undefined && t - s.lastActive >= s.idleMs) s.ac.abort()
  }

  private stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper)
    this.sweeper = undefined
  }
}
