// Writing a long response at the pace its client reads it: after a write the socket cannot take
// at once, the writer waits for 'drain' instead of queueing more, so a client that reads slowly
// (or never) holds at most one write's worth beyond the socket's own buffer. A client that takes
// nothing for `stalledMs` is let go.
import type {ServerResponse} from 'node:http'
import type {TurnShare} from './turn-share.js'

/** Bytes gathered into one write: a log line is a few hundred bytes, a write costs far more. */
export const PACED_BATCH_BYTES = 64 * 1024

/** Writes `chunk`; resolves once the response can take more, or it ended, or `signal` aborted. */
export async function writeAtClientPace(res: ServerResponse, chunk: Buffer, signal: AbortSignal, stalledMs: number): Promise<void> {
  if (res.destroyed || signal.aborted) return
  if (res.write(chunk)) return
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      res.off('drain', done)
      res.off('close', done)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(() => {
      res.destroy()
      done()
    }, stalledMs)
    res.once('drain', done)
    res.once('close', done)
    signal.addEventListener('abort', done, {once: true})
  })
}

/**
 * Many small writes (a log's lines) sent as few large ones, at the client's pace. Each write to
 * a chunked response costs a chunk header and a trip through the socket's buffers, so a 10 MiB
 * log of short lines written line by line costs several times the CPU of the same bytes in 64 KiB
 * writes, and keeps the event loop from other clients meanwhile. What is gathered goes out once
 * `batchBytes` are there, or at the end of the event loop's turn, so a followed log's lines are
 * not held back. Holds at most `batchBytes` beyond writeAtClientPace's one write.
 */
export class PacedWriter {
  private parts: Buffer[] = []
  private size = 0
  private sending: Promise<void> = Promise.resolve()
  /** Sends not yet taken by the response; while there are any, the writer waits. */
  private unsent = 0
  private flushQueued = false

  constructor(
    private readonly res: ServerResponse,
    private readonly signal: AbortSignal,
    private readonly stalledMs: number,
    /** Shared by every log read: each sends within its turn's share (turn-share.ts). */
    private readonly share: TurnShare,
    private readonly batchBytes = PACED_BATCH_BYTES,
  ) {}

  /**
   * Gathers `chunks`. Returns a promise, to be awaited before the next write, when the client
   * has not kept pace; nothing when the writer may go on at once (most lines: no promise each).
   */
  write(chunks: readonly Buffer[]): void | Promise<void> {
    if (this.unsent > 0) return this.sending.then(() => this.write(chunks))
    for (const c of chunks) {
      this.parts.push(c)
      this.size += c.length
    }
    if (this.size >= this.batchBytes) return this.flush()
    if (!this.flushQueued) {
      this.flushQueued = true
      setImmediate(() => {
        this.flushQueued = false
        this.flush().catch(() => this.res.destroy())
      })
    }
  }

  /** Sends what is gathered; resolves once the response can take more. */
  flush(): Promise<void> {
    if (this.size > 0) {
      const data = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size)
      this.parts = []
      this.size = 0
      this.unsent++
      this.sending = this.sending
        .then(() => this.share.take(data.length))
        .then(() => writeAtClientPace(this.res, data, this.signal, this.stalledMs))
        .finally(() => this.unsent--)
    }
    return this.sending
  }
}
