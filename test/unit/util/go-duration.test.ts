import {describe, expect, it} from 'vitest'
import {formatGoDuration} from '../../../src/util/go-duration.js'

describe('formatGoDuration', () => {
  it.each([
    // The crash-loop back-off's steps, as the kubelet prints them.
    [10_000, '10s'],
    [20_000, '20s'],
    [40_000, '40s'],
    [80_000, '1m20s'],
    [160_000, '2m40s'],
    [300_000, '5m0s'],
    [0, '0s'],
    [3_600_000, '1h0m0s'],
    [3_723_000, '1h2m3s'],
    // Pull timings, truncated to milliseconds by the caller.
    [1_234, '1.234s'],
    [1_500, '1.5s'],
    [62_345, '1m2.345s'],
    [523, '523ms'],
    [1.5, '1.5ms'],
    [0.25, '250µs'],
    [0.000_5, '500ns'],
    [-10_000, '-10s'],
  ])('%d ms → %s', (ms, want) => {
    expect(formatGoDuration(ms)).toBe(want)
  })
})
