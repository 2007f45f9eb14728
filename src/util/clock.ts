// Time is injected so that the core can be tested with a fake clock.
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  sleep(ms: number, signal?: AbortSignal): Promise<void>
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
}
