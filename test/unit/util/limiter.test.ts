// The limiter: at most n tasks at a time, in arrival order; a waiting task whose signal fires
// leaves the queue at once (a pod killed while its sync waits for a slot).
import {describe, expect, it} from 'vitest'
import {limiter} from '../../../src/util/limiter.js'
import {untilAborted} from '../../../src/util/abort.js'

const tick = (): Promise<void> => new Promise((r) => setImmediate(r))

describe('limiter', () => {
  it('runs at most n at a time, the rest in arrival order', async () => {
    const limit = limiter(1)
    const log: string[] = []
    let release = (): void => {}
    const first = limit(() => new Promise<void>((r) => (release = () => (log.push('a'), r()))))
    const second = limit(async () => void log.push('b'))
    await tick()
    expect(log).toEqual([])
    release()
    await Promise.all([first, second])
    expect(log).toEqual(['a', 'b'])
  })

  it('a waiting task whose signal fires leaves the queue and never runs', async () => {
    const limit = limiter(1)
    let release = (): void => {}
    const first = limit(() => new Promise<void>((r) => (release = r)))
    const ctl = new AbortController()
    let ran = false
    const waiting = limit(async () => void (ran = true), ctl.signal)
    const third = limit(async () => 'third')
    ctl.abort(new Error('interrupted: its manifest is gone'))
    await expect(waiting).rejects.toThrow('interrupted: its manifest is gone')
    release()
    await first
    expect(await third).toBe('third')
    expect(ran).toBe(false)
  })

  it('an aborted signal never enters', async () => {
    const ctl = new AbortController()
    ctl.abort()
    await expect(limiter(4)(async () => 1, ctl.signal)).rejects.toThrow()
  })
})

describe('untilAborted', () => {
  it('settles as the promise does without a signal or before an abort', async () => {
    expect(await untilAborted(Promise.resolve(1), undefined)).toBe(1)
    expect(await untilAborted(Promise.resolve(2), new AbortController().signal)).toBe(2)
  })

  it('rejects at the abort; a later rejection of the promise is handled', async () => {
    const ctl = new AbortController()
    let fail = (_e: Error): void => {}
    const p = new Promise<number>((_r, reject) => (fail = reject))
    const waited = untilAborted(p, ctl.signal)
    ctl.abort(new Error('stop'))
    await expect(waited).rejects.toThrow('stop')
    fail(new Error('late'))
    await tick()
  })
})
