// One share of each event-loop turn for all log reads together (watches send small events and
// are bounded by MAX_PENDING_BYTES instead). libuv takes one new connection from a listener per
// turn (libuv/libuv#3696), so a turn in which 32 log reads each parse and send a chunk delays
// every client still waiting to connect by that much, and a burst of connections waits for as
// many turns as it holds. Capping the bytes the log reads send in one turn keeps each turn short,
// whatever the number of readers; what did not fit goes on in the next turn, after that turn has
// taken its connection and read its requests.

/** Bytes the log reads may send in one event-loop turn, all of them together. */
export const TURN_SHARE_BYTES = 256 * 1024

export class TurnShare {
  private used = 0
  private waiting: Array<() => void> = []
  private turnEndQueued = false

  constructor(private readonly bytesPerTurn = TURN_SHARE_BYTES) {}

  /** Counts `bytes` against this turn; returns a promise to await when this turn's share is spent. */
  take(bytes: number): void | Promise<void> {
    if (this.used < this.bytesPerTurn) {
      this.used += bytes
      this.queueTurnEnd()
      return
    }
    return new Promise<void>((resume) => this.waiting.push(resume)).then(() => this.take(bytes))
  }

  /**
   * A new share once the next turn has polled: an immediate set now runs at the end of this
   * turn, and the one it sets runs at the end of the next, after that turn's poll for I/O.
   */
  private queueTurnEnd(): void {
    if (this.turnEndQueued) return
    this.turnEndQueued = true
    setImmediate(() =>
      setImmediate(() => {
        this.turnEndQueued = false
        this.used = 0
        const resume = this.waiting
        this.waiting = []
        for (const r of resume) r()
      }),
    )
  }
}
