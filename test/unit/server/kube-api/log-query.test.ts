import {describe, expect, it} from 'vitest'
import {keepLine, parseLogQuery} from '../../../../src/server/kube-api/log-query.js'
import {parseQuery} from '../../../../src/server/kube-api/query.js'

const NOW = Date.parse('2026-01-01T00:10:00Z')
const q = (s: string) => parseLogQuery(parseQuery(`/x?${s}`), NOW)

describe('parseLogQuery', () => {
  it('reads what kubectl logs sends', () => {
    expect(q('container=main&follow=true&previous=true&tailLines=10&timestamps=true')).toEqual({container: 'main', follow: true, previous: true, tailLines: 10, timestamps: true})
    expect(q('sinceSeconds=60')).toMatchObject({sinceMs: NOW - 60_000, timestamps: false})
  })

  it('reads follow, previous and timestamps as the API server does: what the Python client sends (True) and any value but 0 or false', () => {
    expect(q('follow=True&previous=FALSE&timestamps=maybe')).toMatchObject({follow: true, previous: false, timestamps: true})
  })

  it.each(['tailLines=-1', 'tailLines=x', 'container=../x', 'sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z', 'sinceTime=yesterday', 'limitBytes=0'])('refuses %s with a 400 Status', (s) => {
    expect(() => q(s)).toThrow(expect.objectContaining({status: expect.objectContaining({code: 400})}))
  })

  it('refuses a query with too many parameters', () => {
    expect(() => parseQuery('/x?' + Array.from({length: 40}, (_, i) => `p${i}=1`).join('&'))).toThrow('too many query parameters')
  })
})

describe('keepLine', () => {
  it('drops lines whose first record is older than sinceSeconds', () => {
    const since = q('sinceSeconds=60')
    expect(keepLine(since, '2026-01-01T00:08:00.000000000Z')).toBe(false)
    expect(keepLine(since, '2026-01-01T00:09:30.000000000Z')).toBe(true)
  })

  it('keeps every line without a since, and lines without a timestamp', () => {
    expect(keepLine(q(''), '2020-01-01T00:00:00Z')).toBe(true)
    expect(keepLine(q('sinceSeconds=60'), '')).toBe(true)
  })
})
