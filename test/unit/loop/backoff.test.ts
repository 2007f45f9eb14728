import {describe, expect, it} from 'vitest'
import {BackOff, INITIAL_BACKOFF_MS, MAX_BACKOFF_MS} from '../../../src/loop/backoff.js'

describe('BackOff', () => {
  it.each([
    ['first failure', [0], 0, INITIAL_BACKOFF_MS],
    ['doubles on each failure', [0, 1_000, 2_000], 2_000, 4 * INITIAL_BACKOFF_MS],
    ['stops at the maximum', [0, 1, 2, 3, 4, 5, 6, 7], 7, MAX_BACKOFF_MS],
    ['starts over after twice the maximum without a failure', [0, 1, 2 * MAX_BACKOFF_MS + 2], 2 * MAX_BACKOFF_MS + 2, INITIAL_BACKOFF_MS],
  ])('%s', (_what, failures, last, delay) => {
    const b = new BackOff()
    let until = 0
    for (const t of failures) until = b.next('k', t, 'CrashLoopBackOff')
    expect(until - last).toBe(delay)
  })

  it('gc forgets only entries idle for twice the maximum delay', () => {
    const b = new BackOff()
    b.next('old', 0, 'CrashLoopBackOff')
    b.next('recent', 2 * MAX_BACKOFF_MS, 'ImagePullBackOff')
    b.gc(2 * MAX_BACKOFF_MS + 1)
    expect(b.size).toBe(1)
    expect(b.get('recent', 2 * MAX_BACKOFF_MS + 1)?.reason).toBe('ImagePullBackOff')
  })

  it('restore takes over another process\'s back-off until its recorded end, and never shortens an own one', () => {
    const b = new BackOff()
    b.restore('taken', 40_000, 0, 'CrashLoopBackOff')
    expect(b.get('taken', 39_999)).toMatchObject({until: 40_000, reason: 'CrashLoopBackOff'})
    // Whatever exit the caller counts from, the recorded end holds.
    expect(b.get('taken', 39_999, -5_000)).toMatchObject({until: 40_000})
    expect(b.get('taken', 40_000)).toBeUndefined()
    b.next('own', 0, 'CrashLoopBackOff')
    b.restore('own', 1_000, 0, 'CrashLoopBackOff')
    expect(b.get('own', 5_000)?.until).toBe(INITIAL_BACKOFF_MS)
    b.restore('over', 5, 10, 'CrashLoopBackOff')
    expect(b.size).toBe(2)
  })

  it.each<[string, number, number, boolean]>([
    ['an exit right after a restart waits the delay from the exit', 60_000, 60_000, true],
    ['the delay has passed since the exit', 60_000, 70_000, false],
    ['an exit after more than twice the maximum of running starts afresh', 2 * MAX_BACKOFF_MS + 1, 2 * MAX_BACKOFF_MS + 1, false],
  ])('get(key, now, since): %s', (_name, since, now, blocked) => {
    const b = new BackOff()
    b.next('k', 0, 'CrashLoopBackOff')
    expect(b.get('k', now, since) !== undefined).toBe(blocked)
  })
})
