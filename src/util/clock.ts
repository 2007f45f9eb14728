// Time is injected so that the core can be tested with a fake clock: every reading of the time
// and every timer of the core goes through a Clock.
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** Calls fn once after ms; returns a function that cancels it. Never keeps the process alive. */
  after(ms: number, fn: () => void): () => void
  /** Calls fn every ms until cancelled (the returned function). */
  every(ms: number, fn: () => void): () => void
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve()
      const t = setTimeout(done, ms)
      function done(): void {
        clearTimeout(t)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      signal?.addEventListener('abort', done, {once: true})
    }),
  after: (ms, fn) => {
    const t = setTimeout(fn, ms)
    t.unref()
    return () => clearTimeout(t)
  },
  every: (ms, fn) => {
    const t = setInterval(fn, ms)
    return () => clearInterval(t)
  },
}
