// A clock for tests: sleeping advances time at once (and the fake runtime's clock with it), so
// back-off and timeouts take no real time. Timers fire as time is advanced past them.
import type {Clock} from '../../src/util/clock.js'

interface Timer {
  due: number
  /** Set for `every` timers. */
  period?: number
  fn: () => void
}

export class FakeClock implements Clock {
  private sleepWaiters: (() => void)[] = []
  private timers = new Set<Timer>()

  constructor(
    private readonly linked?: {nowMs: number},
    private t = linked?.nowMs ?? 1_700_000_000_000,
  ) {}

  now(): number {
    return this.t
  }

  advance(ms: number): void {
    const end = this.t + ms
    for (;;) {
      const next = [...this.timers].filter((t) => t.due <= end).sort((a, b) => a.due - b.due)[0]
      if (!next) break
      this.setTime(Math.max(this.t, next.due))
      if (next.period) next.due += next.period
      else this.timers.delete(next)
      next.fn()
    }
    this.setTime(end)
  }

  after(ms: number, fn: () => void): () => void {
    const timer: Timer = {due: this.t + ms, fn}
    this.timers.add(timer)
    return () => this.timers.delete(timer)
  }

  every(ms: number, fn: () => void): () => void {
    const timer: Timer = {due: this.t + ms, period: Math.max(1, ms), fn}
    this.timers.add(timer)
    return () => this.timers.delete(timer)
  }

  private setTime(t: number): void {
    this.t = t
    if (this.linked) this.linked.nowMs = this.t
  }

  async sleep(ms: number): Promise<void> {
    const waiters = this.sleepWaiters
    this.sleepWaiters = []
    for (const w of waiters) w()
    // Yield to the event loop so that a test can act between syncs.
    await new Promise((r) => setImmediate(r))
    this.advance(ms)
  }

  /** Resolves at the next sleep() call: the code under test has finished a step. */
  waitForSleep(): Promise<void> {
    return new Promise((r) => this.sleepWaiters.push(r))
  }
}
