// Reading CRI log files as `kubectl logs` shows them: partial lines joined, tail, timestamps,
// and --follow across rotation.
import {describe, expect, it} from 'vitest'
import fc from 'fast-check'
import {appendFileSync, mkdtempSync, renameSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {parseLog} from '../../../src/kuberuntime/log-format.js'
import {streamContainerLog} from '../../../src/kuberuntime/logs.js'
import {nodeHostFs} from '../../../src/host/node-host-fs.js'
import {realClock} from '../../../src/util/clock.js'
import {lineSink} from '../../support/log-lines.js'

const T1 = '2026-11-21T20:42:31.812111033Z'
const T2 = '2026-11-21T20:42:32.000000001Z'

describe('CRI log format', () => {
  it.each([
    ['a full line', `${T1} stdout F hello\n`, [{timestamp: T1, stream: 'stdout', text: 'hello'}]],
    ['partial records joined', `${T1} stdout P hel\n${T2} stdout F lo\n`, [{timestamp: T1, stream: 'stdout', text: 'hello'}]],
    ['stderr kept apart', `${T1} stderr F oops\n`, [{timestamp: T1, stream: 'stderr', text: 'oops'}]],
    ['an empty line', `${T1} stdout F\n`, [{timestamp: T1, stream: 'stdout', text: ''}]],
    ['a line that is not CRI', `plain text\n`, [{timestamp: '', stream: 'stdout', text: 'plain text'}]],
  ])('%s', (_name, content, expected) => {
    expect(parseLog(content)).toEqual(expected)
  })
})

describe('streamContainerLog', () => {
  const file = (): string => join(mkdtempSync(join(tmpdir(), 'kn-logs-')), '0.log')

  it('prints the last N lines, with timestamps when asked', async () => {
    const path = file()
    writeFileSync(path, [1, 2, 3].map((i) => `${T1} stdout F line ${i}`).join('\n') + '\n')
    const out = lineSink()
    await streamContainerLog(path, {tail: 2, timestamps: true, follow: false}, out.write, realClock, nodeHostFs)
    expect(out.lines).toEqual([`${T1} line 2`, `${T1} line 3`])
  })

  it('follows new lines and continues in a rotated file', async () => {
    const path = file()
    writeFileSync(path, `${T1} stdout F first\n`)
    const out = lineSink()
    const abort = new AbortController()
    const done = streamContainerLog(path, {timestamps: false, follow: true, signal: abort.signal, pollMs: 20}, out.write, realClock, nodeHostFs)
    await new Promise((r) => setTimeout(r, 60))
    appendFileSync(path, `${T2} stdout F second\n`)
    await new Promise((r) => setTimeout(r, 80))
    renameSync(path, `${path}.20261121-204232`)
    writeFileSync(path, `${T2} stdout F after rotation\n`)
    await new Promise((r) => setTimeout(r, 80))
    abort.abort()
    await done
    expect(out.lines).toEqual(['first', 'second', 'after rotation'])
  })
})

describe('streamContainerLog with small reads', () => {
  const file = (): string => join(mkdtempSync(join(tmpdir(), 'kn-logs-')), '0.log')

  it('--tail counts full lines, a run of partial records being one, whatever the chunk size', async () => {
    const path = file()
    const long = 'z'.repeat(1000)
    writeFileSync(path, `${T1} stdout F one\n${T1} stdout P ${long}\n${T1} stdout P ${long}\n${T1} stdout F end\nraw line\n${T2} stdout F last\n`)
    for (const chunkBytes of [7, 64, 4096]) {
      const out = lineSink()
      await streamContainerLog(path, {tail: 3, timestamps: false, follow: false, chunkBytes}, out.write, realClock, nodeHostFs)
      expect(out.lines).toEqual([`${long}${long}end`, 'raw line', 'last'])
    }
  })

  it('a line longer than a chunk is written in pieces no larger than the bound', async () => {
    const path = file()
    writeFileSync(path, `${T1} stdout F ${'q'.repeat(5000)}\n`)
    const sizes: number[] = []
    await streamContainerLog(path, {tail: 1, timestamps: false, follow: false, chunkBytes: 256}, (p) => void sizes.push(p.data.length), realClock, nodeHostFs)
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(5000)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(512)
  })

  it('stops reading once its signal aborts, and waits for a writer that is slow', async () => {
    const path = file()
    writeFileSync(path, Array.from({length: 100}, (_, i) => `${T1} stdout F line ${i}\n`).join(''))
    const abort = new AbortController()
    const got: string[] = []
    await streamContainerLog(
      path,
      {timestamps: false, follow: false, signal: abort.signal, chunkBytes: 64},
      async (p) => {
        got.push(p.data.toString())
        await new Promise((r) => setTimeout(r, 1))
        if (got.length === 3) abort.abort()
      },
      realClock,
      nodeHostFs,
    )
    // Three lines, and at most the rest of the one chunk in hand when the abort came.
    expect(got.length).toBeGreaterThanOrEqual(3)
    expect(got.length).toBeLessThan(6)
  })
})

describe('streamContainerLog agrees with joining the records, for any chunk size', () => {
  it('whole file and --tail N, chunks from 1 byte up, lines shorter and longer than a chunk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kn-logs-'))
    const record = fc.record({
      stream: fc.constantFrom('stdout', 'stderr'),
      parts: fc.array(fc.string({maxLength: 300}), {minLength: 1, maxLength: 3}),
      raw: fc.boolean(),
    })
    await fc.assert(
      fc.asyncProperty(fc.array(record, {maxLength: 12}), fc.nat({max: 14}), fc.integer({min: 1, max: 400}), async (records, tail, chunkBytes) => {
        const lines: string[] = []
        records.forEach((r, i) => {
          if (r.raw) return void lines.push(`not a cri line ${i}`)
          r.parts.forEach((p, j) => lines.push(`${T1} ${r.stream} ${j === r.parts.length - 1 ? 'F' : 'P'} ${p.replace(/\n/g, ' ')}`))
        })
        const text = lines.map((l) => `${l}\n`).join('')
        const path = join(dir, 'prop.log')
        writeFileSync(path, text)
        const expected = parseLog(text).map((r) => r.text)
        const whole = lineSink()
        await streamContainerLog(path, {timestamps: false, follow: false, chunkBytes}, whole.write, realClock, nodeHostFs)
        expect(whole.lines).toEqual(expected)
        const tailed = lineSink()
        await streamContainerLog(path, {tail, timestamps: false, follow: false, chunkBytes}, tailed.write, realClock, nodeHostFs)
        expect(tailed.lines).toEqual(expected.slice(Math.max(0, expected.length - tail)))
      }),
      {numRuns: 200},
    )
  })
})
