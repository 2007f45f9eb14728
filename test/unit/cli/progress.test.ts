// run's progress on stderr: a terminal too narrow for a spinner (some CI pseudo-terminals report 0
// columns, where the spinner's redraw once erased forever) gets plain lines instead.
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {createProgress} from '../../../src/cli/render/progress.js'

describe('run progress', () => {
  let written: string[]
  beforeEach(() => {
    written = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    })
  })
  afterEach(() => vi.restoreAllMocks())

  it.each([0, undefined, 5])('a terminal of %s columns gets plain, timestamped lines and no cursor codes', async (cols) => {
    const p = await createProgress({tty: true, quiet: false, columns: () => cols})
    p.onEvent({pod: 'web', kind: 'waiting', text: 'pulling'})
    p.onEvent({pod: 'web', kind: 'waiting', text: 'pulling'})
    p.onEvent({pod: 'web', kind: 'result', outcome: 'done', text: 'pod is Running'})
    p.stop()
    expect(written).toHaveLength(2)
    expect(written[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+ web: pulling\n$/)
    expect(written.join('')).not.toMatch(/\u001b/)
  })

  it('a terminal that shrinks to 0 columns while run waits switches to plain lines', async () => {
    let cols = 80
    const p = await createProgress({tty: true, quiet: false, columns: () => cols})
    p.onEvent({pod: 'web', kind: 'waiting', text: 'pulling'})
    cols = 0
    written.length = 0
    p.onEvent({pod: 'web', kind: 'waiting', text: 'starting'})
    p.stop()
    expect(written.filter((w) => /web: starting\n$/.test(w))).toHaveLength(1)
    // Bounded output: one stop of the spinner, one line, nothing repeated.
    expect(written.join('').length).toBeLessThan(1000)
  })
})
