import {describe, expect, it} from 'vitest'
import {needsTimestamps, parseLogQuery, shapeLine} from '../../../../src/server/kube-api/log-query.js'
import {parseQuery} from '../../../../src/server/kube-api/query.js'

const NOW = Date.parse('2026-01-01T00:10:00Z')
const q = (s: string) => parseLogQuery(parseQuery(`/x?${s}`), NOW)

describe('parseLogQuery', () => {
  it('reads what kubectl logs sends', () => {
    expect(q('container=main&follow=true&previous=true&tailLines=10&timestamps=true')).toEqual({container: 'main', follow: true, previous: true, tailLines: 10, timestamps: true})
    expect(q('sinceSeconds=60')).toMatchObject({sinceMs: NOW - 60_000, timestamps: false})
  })

  it.each(['tailLines=-1', 'tailLines=x', 'follow=maybe', 'container=../x', 'sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z', 'sinceTime=yesterday', 'limitBytes=0'])('refuses %s with a 400 Status', (s) => {
    expect(() => q(s)).toThrow(expect.objectContaining({status: expect.objectContaining({code: 400})}))
  })

  it('refuses a query with too many parameters', () => {
    expect(() => parseQuery('/x?' + Array.from({length: 40}, (_, i) => `p${i}=1`).join('&'))).toThrow('too many query parameters')
  })
})

describe('shapeLine', () => {
  const line = (t: string, text: string) => `${t} ${text}`
  it('drops lines before sinceSeconds and removes the timestamp it needed', () => {
    const since = q('sinceSeconds=60')
    expect(needsTimestamps(since)).toBe(true)
    expect(shapeLine(since, line('2026-01-01T00:08:00.000000000Z', 'old'))).toBeUndefined()
    expect(shapeLine(since, line('2026-01-01T00:09:30.000000000Z', 'new'))).toBe('new')
    const withTs = q('sinceSeconds=60&timestamps=true')
    expect(shapeLine(withTs, line('2026-01-01T00:09:30.000000000Z', 'new'))).toBe('2026-01-01T00:09:30.000000000Z new')
  })

  it('passes lines through untouched without a since', () => {
    expect(shapeLine(q(''), 'plain text')).toBe('plain text')
  })
})
