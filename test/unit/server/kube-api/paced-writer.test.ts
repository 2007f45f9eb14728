import {describe, expect, it} from 'vitest'
import {PACED_BATCH_BYTES, PacedWriter} from '../../../../src/server/kube-api/backpressure.js'
import {TurnShare} from '../../../../src/server/kube-api/turn-share.js'
import {fakeResponse, type FakeResponse} from '../../../support/fake-response.js'

const turn = (): Promise<void> => new Promise((r) => setImmediate(r))
const NL = Buffer.from('\n')

function writer(): {res: FakeResponse; out: PacedWriter} {
  const res = fakeResponse()
  const out = new PacedWriter(res, new AbortController().signal, 30_000, new TurnShare())
  return {res, out}
}

describe('PacedWriter', () => {
  it('sends a log of short lines as a few large writes, byte for byte and in order', async () => {
    const {res, out} = writer()
    const lines = Array.from({length: 2000}, (_, i) => Buffer.from(`line ${i} ${'x'.repeat(90)}`))
    for (const line of lines) await out.write([line, NL])
    await out.flush()
    expect(Buffer.concat(res.written).toString()).toBe(lines.map((l) => `${l}\n`).join(''))
    const total = lines.reduce((n, l) => n + l.length + 1, 0)
    expect(res.written.length).toBe(Math.ceil(total / PACED_BATCH_BYTES))
  })

  it('sends a line that nothing follows by the end of the turn, as a followed log needs', async () => {
    const {res, out} = writer()
    expect(out.write([Buffer.from('one line'), NL])).toBeUndefined()
    expect(res.written).toEqual([])
    await turn()
    await turn()
    expect(Buffer.concat(res.written).toString()).toBe('one line\n')
  })

  it('makes the writer wait while the client has not taken the last write, holding at most a batch', async () => {
    const {res, out} = writer()
    res.accepts = false
    const big = Buffer.alloc(PACED_BATCH_BYTES, 'a')
    await Promise.race([out.write([big]), turn()])
    expect(res.written).toHaveLength(1)
    let resumed = false
    const next = Promise.resolve(out.write([Buffer.from('b')])).then(() => (resumed = true))
    for (let i = 0; i < 5; i++) await turn()
    expect(resumed).toBe(false)
    expect(res.written).toHaveLength(1)
    res.accepts = true
    res.emit('drain')
    await next
    await out.flush()
    expect(Buffer.concat(res.written).toString()).toBe(`${big.toString()}b`)
  })
})
