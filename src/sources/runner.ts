// Timing helpers shared by the sources: reads never overlap, and a periodic loop that a stop
// ends at once.
import type {Clock} from '../util/clock.js'

export interface SerialRunner {
  /** Runs the task now, or once more after the running one when it is busy; resolves when idle. */
  request(): Promise<void>
  /** Resolves once no run is in progress. */
  idle(): Promise<void>
}

export function serialRunner(task: () => Promise<void>): SerialRunner {
  let running: Promise<void> | undefined
  let again = false
  return {
    request() {
      if (running) {
        again = true
        return running
      }
      running = (async () => {
        do {
          again = false
          await task()
        } while (again)
      })().finally(() => {
        running = undefined
      })
      return running
    },
    idle: () => running ?? Promise.resolve(),
  }
}

/** Calls `tick` at once and then every `ms` until `signal` aborts. */
export async function repeat(ms: number, clock: Clock, signal: AbortSignal, tick: () => Promise<void>): Promise<void> {
  while (!signal.aborted) {
    await tick()
    if (signal.aborted) return
    await clock.sleep(ms, signal)
  }
}
