// Long-lived responses (watches, log follows) open at once: bounded, each ended when its client
// goes away, when it has run its time, or when the server stops.
import type {ServerResponse} from 'node:http'

/** Above this many unsent bytes a stream's client is too slow: the stream ends (it may watch again). */
export const MAX_PENDING_BYTES = 1024 * 1024

export class Streams {
  private readonly open = new Set<AbortController>()

  constructor(private readonly max: number) {}

  get size(): number {
    return this.open.size
  }

  /**
   * A signal that aborts when the client goes away, after `maxMs`, or on closeAll; undefined
   * when too many streams are open.
   */
  acquire(res: ServerResponse, maxMs: number): AbortSignal | undefined {
    if (this.open.size >= this.max) return undefined
    const ac = new AbortController()
    this.open.add(ac)
    const timer = setTimeout(() => ac.abort(), maxMs)
    const done = (): void => {
      clearTimeout(timer)
      this.open.delete(ac)
      ac.abort()
    }
    ac.signal.addEventListener('abort', done, {once: true})
    // The response's close (not the request's, which closes once its body is read) marks the
    // end of the connection or of the response.
    res.once('close', done)
    return ac.signal
  }

  closeAll(): void {
    for (const ac of [...this.open]) ac.abort()
  }
}
