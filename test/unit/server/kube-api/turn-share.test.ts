import {describe, expect, it} from 'vitest'
import {TurnShare} from '../../../../src/server/kube-api/turn-share.js'

describe('TurnShare', () => {
  it('lets sends through until the turn’s share is spent, then makes the rest wait for a later turn', async () => {
    const share = new TurnShare(100)
    expect(share.take(60)).toBeUndefined()
    expect(share.take(60)).toBeUndefined()
    const order: string[] = []
    const waiting = share.take(10)
    expect(waiting).toBeInstanceOf(Promise)
    const resumed = waiting!.then(() => order.push('resumed'))
    // The end of this turn comes first: the waiting send goes on only in the next one.
    setImmediate(() => order.push('end of this turn'))
    await resumed
    expect(order).toEqual(['end of this turn', 'resumed'])
    // A new turn, a new share: what resumed counts against it, the rest fits.
    expect(share.take(80)).toBeUndefined()
  })

  it('resumes every waiting send, in the order they came, over the following turns', async () => {
    const share = new TurnShare(10)
    share.take(10)
    const order: number[] = []
    await Promise.all([1, 2, 3, 4].map((n) => Promise.resolve(share.take(10)).then(() => order.push(n))))
    expect(order).toEqual([1, 2, 3, 4])
  })
})
