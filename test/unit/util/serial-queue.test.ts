import {describe, expect, it} from 'vitest'
import {serialQueue} from '../../../src/util/serial-queue.js'

describe('serialQueue', () => {
  it('runs tasks one at a time in arrival order, and a failure does not block the next', async () => {
    const q = serialQueue()
    const log: string[] = []
    const task = (name: string, ms: number, fail = false) => async () => {
      log.push(`start ${name}`)
      await new Promise((r) => setTimeout(r, ms))
      log.push(`end ${name}`)
      if (fail) throw new Error(name)
      return name
    }
    const results = await Promise.allSettled([q(task('a', 20, true)), q(task('b', 1)), q(task('c', 5))])
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled'])
  })
})
