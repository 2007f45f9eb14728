// Logs of any size: `logs --tail N` reads from the end and `logs` streams, so a log of several
// GiB costs neither time nor memory proportional to its size; and tail agrees with a whole-file
// read on logs of every shape (partial lines, lines longer than a read chunk, non-CRI lines).
import {closeSync, mkdtempSync, openSync, rmSync, truncateSync, writeFileSync, writeSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import fc from 'fast-check'
import {LOG_CHUNK_BYTES, streamContainerLog} from '../../src/kuberuntime/logs.js'
import {formatRecord, parseLog} from '../../src/kuberuntime/log-format.js'
import {nodeHostFs} from '../../src/host/node-host-fs.js'
import {realClock} from '../../src/util/clock.js'
import {lineSink} from '../support/log-lines.js'

const dir = mkdtempSync(join(tmpdir(), 'kn-logs-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

async function read(path: string, tail?: number): Promise<string[]> {
  const out = lineSink()
  await streamContainerLog(path, {timestamps: false, follow: false, ...(tail !== undefined ? {tail} : {})}, out.write, realClock, nodeHostFs)
  return out.lines
}

describe('logs of any size', () => {
  it('--tail 5 of a 3 GiB log answers at once, with bounded memory', async () => {
    const path = join(dir, 'big.log')
    writeFileSync(path, '')
    truncateSync(path, 3 * 1024 * 1024 * 1024)
    const fd = openSync(path, 'a')
    for (let i = 0; i < 10; i++) writeSync(fd, `2026-11-23T00:00:0${i}.000000000Z stdout F line ${i}\n`)
    closeSync(fd)
    const rssBefore = process.memoryUsage().rss
    const started = performance.now()
    const lines = await read(path, 5)
    const ms = performance.now() - started
    const rssMiB = (process.memoryUsage().rss - rssBefore) / 1024 / 1024
    console.log(`logs --tail 5 of 3 GiB: ${Math.round(ms)} ms, RSS +${rssMiB.toFixed(1)} MiB`)
    expect(lines).toEqual(['line 5', 'line 6', 'line 7', 'line 8', 'line 9'])
    expect(rssMiB).toBeLessThan(64)
  })

  it('--tail agrees with reading the whole file, for logs of every shape', async () => {
    const record = fc.record({
      stream: fc.constantFrom('stdout', 'stderr'),
      parts: fc.array(fc.oneof(fc.string({maxLength: 40}), fc.constant('x'.repeat(LOG_CHUNK_BYTES + 17))), {minLength: 1, maxLength: 3}),
      raw: fc.boolean(),
    })
    await fc.assert(
      fc.asyncProperty(fc.array(record, {maxLength: 30}), fc.nat({max: 40}), async (records, tail) => {
        const lines: string[] = []
        records.forEach((r, i) => {
          if (r.raw) return void lines.push(`not a cri line ${i}`)
          r.parts.forEach((p, j) => lines.push(`2026-11-23T00:00:00.${String(i).padStart(9, '0')}Z ${r.stream} ${j === r.parts.length - 1 ? 'F' : 'P'} ${p.replace(/\n/g, ' ')}`))
        })
        const text = lines.map((l) => `${l}\n`).join('')
        const path = join(dir, 'prop.log')
        writeFileSync(path, text)
        const expected = parseLog(text).map((r) => formatRecord(r, false))
        expect(await read(path, tail)).toEqual(expected.slice(Math.max(0, expected.length - tail)))
        expect(await read(path)).toEqual(expected)
      }),
      {numRuns: 150},
    )
  })
})
