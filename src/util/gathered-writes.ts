// Many small writes (a log's lines) handed on as few large ones. Each write to a socket, a pipe or
// a chunked HTTP response costs far more than the few hundred bytes of a log line: a 64 MiB log
// written line by line spends most of its CPU on the writes. What is gathered goes on once
// `batchBytes` are there, or at the end of the event loop's turn, so the lines of a followed log
// are not held back. While a send has not finished (its reader has not kept pace), the writer is
// told to wait: at most `batchBytes` are held beyond the send in progress.

/** Bytes gathered into one send. */
export const GATHER_BYTES = 64 * 1024

export class GatheredWrites {
  private parts: Buffer[] = []
  private size = 0
  private sending: Promise<void> = Promise.resolve()
  /** Sends not yet finished; while there are any, the writer waits. */
  private unsent = 0
  private flushQueued = false

  constructor(
    /** Hands a gathered chunk on; resolves when the receiver can take more. */
    private readonly send: (chunk: Buffer) => void | Promise<void>,
    /** A send that failed at the end of a turn, when no writer is waiting to hear it. */
    private readonly onLateError: (err: unknown) => void,
    private readonly batchBytes = GATHER_BYTES,
  ) {}

  /**
   * Gathers `chunks`. Returns a promise, to be awaited before the next write, when the receiver
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
        this.flush().catch(this.onLateError)
      })
    }
  }

  /** Sends what is gathered; resolves once the receiver can take more. */
  flush(): Promise<void> {
    if (this.size > 0) {
      const data = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size)
      this.parts = []
      this.size = 0
      this.unsent++
      this.sending = this.sending.then(() => this.send(data)).finally(() => this.unsent--)
    }
    return this.sending
  }
}
