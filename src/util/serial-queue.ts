// A queue that runs one task at a time, in arrival order; a failed task does not stop the next.
import {limiter} from './limiter.js'

export function serialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  return limiter(1)
}
