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

describe('a directory of large files', () => {
  it('reads at most 64 MiB of it and names every file it left out', async () => {
    const {mkdtempSync, writeFileSync, rmSync} = await import('node:fs')
    const {tmpdir} = await import('node:os')
    const {readLocation} = await import('../../src/manifest/read.js')
    const {MAX_DIRECTORY_BYTES} = await import('../../src/manifest/limits.js')
    const dir = mkdtempSync(join(tmpdir(), 'kn-bigdir-'))
    const nine = `# ${'x'.repeat(9 * 1024 * 1024)}\n`
    for (let i = 0; i < 10; i++) writeFileSync(join(dir, `f${i}.yaml`), nine)
    const {diskIO} = await import('../support/disk-io.js')
    const r = await readLocation({kind: 'dir', path: dir, arg: dir}, diskIO)
    rmSync(dir, {recursive: true, force: true})
    const read = r.blobs.reduce((n, b) => n + b.text.length, 0)
    expect(read).toBeLessThanOrEqual(MAX_DIRECTORY_BYTES)
    expect(r.blobs).toHaveLength(7)
    expect(r.issues.map((i) => i.location.slice(dir.length + 1))).toEqual(['f7.yaml', 'f8.yaml', 'f9.yaml'])
    expect(r.issues[0]!.message).toMatch(/pass 64 MiB in all/)
  })
})
