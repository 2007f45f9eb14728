// Parser bombs: every shape of input up to 10 MiB is answered — accepted, or refused with an
// issue naming the location and the limit — in bounded time and memory. Each shape runs in its
// own process whose heap is capped at the target (256 MiB beyond a bare process): running out
// would kill it, and the test would fail. Times are printed for the closing note and bounded
// loosely here (the machine is shared); the limits themselves are asserted exactly.
import {spawnSync} from 'node:child_process'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {SHAPES, SIZE} from './support/bomb-shapes.mjs'

const CHILD = join(import.meta.dirname, 'support/bomb-child.mjs')
const HEAP_MIB = 256 + 32

describe('parser bombs: any 10 MiB input is answered in bounded time and memory', () => {
  it.each(Object.entries(SHAPES))('%s', (name, [, outcome, pattern]) => {
    const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MIB}`, CHILD, name], {encoding: 'utf8', timeout: 60_000})
    expect(r.status, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout) as {ms: number; bytes: number; pods: number; issues: string[]; peakRssMiB: number}
    console.log(`bomb ${JSON.stringify(name)}: ${Math.round(out.ms)} ms, peak RSS ${Math.round(out.peakRssMiB)} MiB, ${outcome}`)
    expect(out.bytes).toBeLessThanOrEqual(SIZE)
    if (outcome === 'accepted') {
      expect(out.issues).toEqual([])
      expect(out.pods).toBeGreaterThan(0)
    } else {
      expect(out.pods).toBe(0)
      expect(out.issues.join('\n')).toMatch(new RegExp(pattern!))
    }
    // Generous: the target is 2 s; the closing note quotes the measured figures.
    expect(out.ms).toBeLessThan(10_000)
  })
})
