// Retries an operation that fails while a dependency (the runtime) is briefly away, until a
// deadline; the last error is thrown when time is up.
import type {Clock} from './clock.js'

export async function retryUntil<T>(
  op: () => Promise<T>,
  opts: {deadline: number; clock: Clock; intervalMs?: number; signal?: AbortSignal | undefined; onError?: (err: unknown) => void},
): Promise<T> {
  for (;;) {
    try {
      return await op()
    } catch (err) {
      const left = opts.deadline - opts.clock.now()
      if (left <= 0 || opts.signal?.aborted) throw err
      opts.onError?.(err)
      await opts.clock.sleep(Math.min(opts.intervalMs ?? 1000, left), opts.signal)
    }
  }
}
