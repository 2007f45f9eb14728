// When watch syncs a pod next: a back-off expiry first, else the error back-off or the resync
// period with their jitter, and never after the pod's active deadline passes.
import {describe, expect, it} from 'vitest'
import {nextSyncAt, type NextSyncInput} from '../../../src/decide/next-sync.js'

const BASE: NextSyncInput = {now: 1_000, backOffUntil: [], failed: false, resyncIntervalMs: 60_000, errorBackOffMs: 10_000, random: 0}

describe('nextSyncAt', () => {
  it.each<[string, Partial<NextSyncInput>, number]>([
    ['a healthy pod: the resync period', {}, 61_000],
    ['the resync period with the largest jitter', {random: 0.999}, 1_000 + 60_000 + 0.999 * 30_000],
    ['a failed sync: the error back-off', {failed: true}, 11_000],
    ['a failed sync with half the jitter', {failed: true, random: 0.5}, 13_500],
    ['a backed-off container: when its back-off ends', {backOffUntil: [21_000]}, 21_000],
    ['several: the first to end', {backOffUntil: [41_000, 21_000, 31_000]}, 21_000],
    ['a back-off beats a failure', {backOffUntil: [5_000], failed: true}, 5_000],
    ['a back-off longer than the resync period is still waited for', {backOffUntil: [301_000]}, 301_000],
    ['an active deadline before the resync', {deadline: 30_000}, 30_000],
    ['an active deadline before a back-off ends', {backOffUntil: [21_000], deadline: 15_000}, 15_000],
    ['an active deadline after the resync changes nothing', {deadline: 90_000}, 61_000],
    ['an active deadline already passed changes nothing', {deadline: 1_000}, 61_000],
  ])('%s', (_name, input, want) => {
    expect(nextSyncAt({...BASE, ...input})).toBe(want)
  })
})
