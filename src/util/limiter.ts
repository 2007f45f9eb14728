// At most `n` tasks at a time; the others wait in arrival order. serialQueue is limiter(1).
// A task given a signal leaves the queue when it fires before its turn (its caller gave up).
import {abortReason} from './abort.js'

export type Limiter = <T>(task: () => Promise<T>, signal?: AbortSignal) => Promise<T>

export function limiter(n: number): Limiter {
  let active = 0
  const waiting: (() => void)[] = []
  const turn = (signal: AbortSignal | undefined): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const go = (): void => {
        signal?.removeEventListener('abort', leave)
        resolve()
      }
      const leave = (): void => {
        const i = waiting.indexOf(go)
        if (i !== -1) waiting.splice(i, 1)
        reject(abortReason(signal!))
      }
      waiting.push(go)
      signal?.addEventListener('abort', leave, {once: true})
    })
  return async <T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
    if (signal?.aborted) throw abortReason(signal)
    if (active >= n) await turn(signal)
    active++
    try {
      return await task()
    } finally {
      active--
      waiting.shift()?.()
    }
  }
}
