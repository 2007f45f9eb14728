import {describe, expect, it} from 'vitest'
import {GATHER_BYTES, GatheredWrites} from '../../../src/util/gathered-writes.js'

const turn = (): Promise<void> => new Promise((r) => setImmediate(r))
const NL = Buffer.from('\n')

/** A receiver that keeps what it was sent; while `hold` is set, a send finishes only on release(). */
function receiver(): {sent: Buffer[]; hold: boolean; release: () => void; send: (chunk: Buffer) => void | Promise<void>} {
  const r = {
    sent: [] as Buffer[],
    hold: false,
    release: () => undefined as void,
    send: (chunk: Buffer): void | Promise<void> => {
      r.sent.push(chunk)
      if (r.hold) return new Promise<void>((resolve) => (r.release = resolve))
    },
  }
  return r
}

describe('GatheredWrites', () => {
  it('hands a log of short lines on as a few large sends, byte for byte and in order', async () => {
    const r = receiver()
    const out = new GatheredWrites(r.send, () => undefined)
    const lines = Array.from({length: 2000}, (_, i) => Buffer.from(`line ${i} ${'x'.repeat(90)}`))
    for (const line of lines) await out.write([line, NL])
    await out.flush()
    expect(Buffer.concat(r.sent).toString()).toBe(lines.map((l) => `${l}\n`).join(''))
    const total = lines.reduce((n, l) => n + l.length + 1, 0)
    expect(r.sent.length).toBe(Math.ceil(total / GATHER_BYTES))
  })

  it('sends a line that nothing follows by the end of the turn, as a followed log needs', async () => {
    const r = receiver()
    const out = new GatheredWrites(r.send, () => undefined)
    expect(out.write([Buffer.from('one line'), NL])).toBeUndefined()
    expect(r.sent).toEqual([])
    await turn()
    expect(Buffer.concat(r.sent).toString()).toBe('one line\n')
  })

  it('makes the writer wait while the receiver has not taken the last send, holding at most a batch', async () => {
    const r = receiver()
    r.hold = true
    const out = new GatheredWrites(r.send, () => undefined)
    const big = Buffer.alloc(GATHER_BYTES, 'a')
    void out.write([big])
    let resumed = false
    const next = Promise.resolve(out.write([Buffer.from('b')])).then(() => (resumed = true))
    for (let i = 0; i < 5; i++) await turn()
    expect(resumed).toBe(false)
    expect(r.sent).toHaveLength(1)
    r.hold = false
    r.release()
    await next
    await out.flush()
    expect(Buffer.concat(r.sent).toString()).toBe(`${big.toString()}b`)
  })

  it('reports a send that fails at the end of a turn, when no writer waits for it', async () => {
    const errors: unknown[] = []
    const out = new GatheredWrites(() => Promise.reject(new Error('gone')), (err) => errors.push(err))
    out.write([Buffer.from('x')])
    await turn()
    await turn()
    expect(errors).toEqual([new Error('gone')])
  })
})
