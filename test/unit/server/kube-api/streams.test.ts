import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {STREAM_EVICT_IDLE_MS, Streams} from '../../../../src/server/kube-api/streams.js'
import {writeAtClientPace} from '../../../../src/server/kube-api/backpressure.js'
import {fakeResponse} from '../../../support/fake-response.js'

beforeEach(() => vi.useFakeTimers({now: 0}))
afterEach(() => vi.useRealTimers())

describe('Streams', () => {
  it('counts every stream against one limit and frees a slot when its response closes', () => {
    const streams = new Streams(2)
    const a = fakeResponse()
    expect(streams.acquire(a, {maxMs: 60_000})).toBeDefined()
    expect(streams.acquire(fakeResponse(), {maxMs: 60_000})).toBeDefined()
    expect(streams.acquire(fakeResponse(), {maxMs: 60_000})).toBeUndefined()
    a.emit('close')
    expect(streams.size).toBe(1)
    expect(streams.acquire(fakeResponse(), {maxMs: 60_000})).toBeDefined()
  })

  it('ends a watch that has said nothing for its idle time, not one that keeps talking', () => {
    const streams = new Streams(4)
    const quiet = streams.acquire(fakeResponse(), {maxMs: 3_600_000, idleMs: 300_000})!
    const busy = streams.acquire(fakeResponse(), {maxMs: 3_600_000, idleMs: 300_000})!
    for (let t = 0; t < 299; t++) {
      vi.advanceTimersByTime(1000)
      busy.touch()
    }
    expect(quiet.signal.aborted).toBe(false)
    vi.advanceTimersByTime(2000)
    expect(quiet.signal.aborted).toBe(true)
    expect(busy.signal.aborted).toBe(false)
  })

  it('when full, ends the quietest stream once it has been quiet a while, so idle clients cannot lock others out', () => {
    const streams = new Streams(2)
    const old = streams.acquire(fakeResponse(), {maxMs: 3_600_000})!
    vi.advanceTimersByTime(1000)
    const newer = streams.acquire(fakeResponse(), {maxMs: 3_600_000})!
    expect(streams.acquire(fakeResponse(), {maxMs: 3_600_000})).toBeUndefined()
    vi.advanceTimersByTime(STREAM_EVICT_IDLE_MS)
    expect(streams.acquire(fakeResponse(), {maxMs: 3_600_000})).toBeDefined()
    expect(old.signal.aborted).toBe(true)
    expect(newer.signal.aborted).toBe(false)
  })

  it('ends every stream after its maximum time', () => {
    const streams = new Streams(2)
    const s = streams.acquire(fakeResponse(), {maxMs: 10_000})!
    vi.advanceTimersByTime(10_000)
    expect(s.signal.aborted).toBe(true)
    expect(streams.size).toBe(0)
  })
})

describe('writeAtClientPace', () => {
  it('waits for drain once the socket takes no more, and lets a client that stalls go', async () => {
    const res = fakeResponse()
    const signal = new AbortController().signal
    await writeAtClientPace(res, Buffer.from('a'), signal, 30_000)
    res.accepts = false
    let done = false
    const waiting = writeAtClientPace(res, Buffer.from('b'), signal, 30_000).then(() => (done = true))
    await vi.advanceTimersByTimeAsync(10_000)
    expect(done).toBe(false)
    res.emit('drain')
    await waiting
    const stalled = writeAtClientPace(res, Buffer.from('c'), signal, 30_000)
    await vi.advanceTimersByTimeAsync(30_000)
    await stalled
    expect(res.destroyed).toBe(true)
  })
})
