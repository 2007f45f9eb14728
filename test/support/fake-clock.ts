// A clock for tests: sleeping advances time at once (and the fake runtime's clock with it), so
// back-off and timeouts take no real time.
import type {Clock} from '../../src/util/clock.js'

export class FakeClock implements Clock {
  private sleepWaiters: (() => void)[] = []

  constructor(
    private readonly linked?: {nowMs: number},
    private t = linked?.nowMs ?? 1_700_000_000_000,
  ) {}

  now(): number {
    return this.t
  }

  advance(ms: number): void {
    this.t += ms
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
