// Waiting for a container's turn to stop while its pod stops (the kubelet's
// terminationOrdering.waitForTurn and containerTerminated): a container waits, at most for what
// is left of its grace period, until the containers before it (pod/termination-order.ts) have
// stopped. Its preStop hook has already run by then: only the stop waits.
import type {Clock} from '../util/clock.js'

interface Stopped {
  promise: Promise<void>
  resolve: () => void
}

export class TerminationTurns {
  private readonly stopped = new Map<string, Stopped>()

  constructor(
    private readonly prerequisites: ReadonlyMap<string, readonly string[]>,
    private readonly clock: Clock,
  ) {}

  /** Resolves when every container before `name` has stopped, or after `ms`, whichever is first. */
  async waitForTurn(name: string, ms: number): Promise<void> {
    const before = this.prerequisites.get(name) ?? []
    if (before.length === 0) return
    let cancel = (): void => {}
    const timeout = new Promise<void>((resolve) => {
      cancel = this.clock.after(ms, resolve)
    })
    await Promise.race([Promise.all(before.map((n) => this.of(n).promise)), timeout])
    cancel()
  }

  /** `name` has stopped (or its stop failed): the containers waiting for it may go on. */
  terminated(name: string): void {
    this.of(name).resolve()
  }

  private of(name: string): Stopped {
    let s = this.stopped.get(name)
    if (!s) {
      let resolve = (): void => {}
      const promise = new Promise<void>((r) => {
        resolve = r
      })
      s = {promise, resolve}
      this.stopped.set(name, s)
    }
    return s
  }
}
