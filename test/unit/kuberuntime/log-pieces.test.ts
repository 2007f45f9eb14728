import {describe, expect, it} from 'vitest'
import {CriPieces, isPartialRecord, LineCollector, LineSplitter, type LineSegment, type LogPiece} from '../../../src/kuberuntime/log-pieces.js'

const T1 = '2026-11-21T20:42:31.812111033Z'
const T2 = '2026-11-21T20:42:32.000000000Z'

function split(chunks: string[], maxHeld: number): Array<{text: string; start: boolean; end: boolean}> {
  const s = new LineSplitter(maxHeld)
  const segs: LineSegment[] = chunks.flatMap((c) => s.push(Buffer.from(c)))
  const rest = s.flush()
  if (rest) segs.push(rest)
  return segs.map((g) => ({text: g.data.toString(), start: g.start, end: g.end}))
}

function pieces(text: string, opts: {timestamps?: boolean; maxHeld?: number; chunk?: number} = {}): LogPiece[] {
  const s = new LineSplitter(opts.maxHeld ?? 128)
  const p = new CriPieces(opts.timestamps ?? false)
  const out: LogPiece[] = []
  const buf = Buffer.from(text)
  const step = opts.chunk ?? buf.length
  for (let i = 0; i < buf.length; i += step) {
    for (const seg of s.push(buf.subarray(i, i + step))) {
      const piece = p.piece(seg)
      if (piece) out.push(piece)
    }
  }
  return out
}

const shown = (ps: LogPiece[]): string => ps.map((p) => p.data.toString() + (p.last ? '\n' : '')).join('')

describe('LineSplitter', () => {
  it('cuts chunks at newlines and joins a line that spans chunks', () => {
    expect(split(['ab\ncd', 'ef\n'], 128)).toEqual([
      {text: 'ab', start: true, end: true},
      {text: 'cdef', start: true, end: true},
    ])
  })

  it('writes a line longer than its bound through in pieces, holding no more than the bound', () => {
    const long = 'x'.repeat(300)
    const segs = split([long.slice(0, 100), long.slice(100, 200), long.slice(200) + '\nnext\n'], 128)
    expect(segs.map((g) => [g.text.length, g.start, g.end])).toEqual([
      [200, true, false],
      [100, false, true],
      [4, true, true],
    ])
    expect(segs.slice(0, 2).map((g) => g.text).join('')).toBe(long)
  })

  it('hands on what it holds of an unfinished line at the end, and forgets it on reset', () => {
    expect(split(['abc'], 128)).toEqual([{text: 'abc', start: true, end: false}])
    const s = new LineSplitter(128)
    s.push(Buffer.from('old'))
    s.reset()
    expect(s.push(Buffer.from('new\n')).map((g) => g.data.toString())).toEqual(['new'])
  })
})

describe('CriPieces: partial records are written through, not joined', () => {
  it('a P…P F run is one line in pieces: the timestamp of its first record before it, one newline after it', () => {
    const ps = pieces(`${T1} stdout P hel\n${T2} stdout P lo \n${T2} stdout F world\n${T2} stderr F next\n`, {timestamps: true})
    expect(ps.map((p) => [p.first, p.last, p.timestamp])).toEqual([
      [true, false, T1],
      [false, false, T1],
      [false, true, T1],
      [true, true, T2],
    ])
    expect(shown(ps)).toBe(`${T1} hello world\n${T2} next\n`)
  })

  it('without timestamps the text is bare; a line that is no CRI record passes through whole', () => {
    expect(shown(pieces(`${T1} stdout F a\nnot cri\n\n${T1} stdout F\n`))).toBe('a\nnot cri\n\n')
  })

  it('a physical line of any length (here 10 KiB through a 128-byte bound) comes out whole, in pieces of bounded size', () => {
    const text = 'y'.repeat(10 * 1024)
    const ps = pieces(`${T1} stdout F ${text}\n${T1} stdout F after\n`, {maxHeld: 128, chunk: 100})
    expect(shown(ps)).toBe(`${text}\nafter\n`)
    expect(Math.max(...ps.map((p) => p.data.length))).toBeLessThanOrEqual(256)
    expect(ps.filter((p) => p.first)).toHaveLength(2)
  })

  it('recognises P records by their first bytes only', () => {
    expect(isPartialRecord(Buffer.from(`${T1} stdout P x`))).toBe(true)
    expect(isPartialRecord(Buffer.from(`${T1} stderr F x`))).toBe(false)
    expect(isPartialRecord(Buffer.from('a plain P line'))).toBe(false)
  })
})

describe('LineCollector', () => {
  it('joins pieces into lines, each cut at its bound', () => {
    const c = new LineCollector(8)
    for (const p of pieces(`${T1} stdout P abcdef\n${T1} stdout F ghijkl\n${T1} stdout F ok\n`)) c.write(p)
    expect(c.lines).toEqual(['abcdefgh', 'ok'])
  })
})
