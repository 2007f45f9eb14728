import {describe, expect, it} from 'vitest'
import {parseHeaderFlag, parseHeaderFlags} from '../../../src/sources/header.js'
import {redactUrl, scrub} from '../../../src/manifest/redact-url.js'
import {InvalidInputError} from '../../../src/util/errors.js'

describe('parseHeaderFlag', () => {
  it.each([
    ['Authorization:Bearer abc', 'Authorization', 'Bearer abc'],
    ['X-Token: s3cr:et ', 'X-Token', 's3cr:et'],
    ['X-Empty:', 'X-Empty', ''],
  ])('%s', (flag, key, value) => {
    expect(parseHeaderFlag(flag)).toEqual({key, value})
  })

  it.each([
    ['no colon', 'Authorization Bearer topsecret', /Key:Value/],
    ['empty key', ':topsecret', /key is empty/],
    ['bad name', 'Bad Name:topsecret', /not a valid HTTP header name/],
    ['line break in value', 'X-A:top\r\nsecret', /line break/],
  ])('rejects %s without repeating the value', (_case, flag, message) => {
    let caught: unknown
    try {
      parseHeaderFlag(flag)
    } catch (err) {
      caught = err
    }
    expect(caught).toBeInstanceOf(InvalidInputError)
    expect((caught as Error).message).toMatch(message)
    expect((caught as Error).message).not.toContain('secret')
  })

  it('groups repeated flags by name, case-insensitively, keeping every value', () => {
    expect(parseHeaderFlags(['X-A:1', 'x-a:2', 'B:3'])).toEqual({'X-A': ['1', '2'], B: ['3']})
  })
})

describe('redaction', () => {
  it.each([
    ['https://user:pw@host:8443/pods.yaml?token=x#frag', 'https://host:8443/pods.yaml'],
    ['http://host/a/b', 'http://host/a/b'],
    ['not a url', '<invalid URL>'],
  ])('redactUrl(%s)', (url, shown) => {
    expect(redactUrl(url)).toBe(shown)
  })

  it('scrubs every secret, the longer first', () => {
    expect(scrub('a tok token b', ['tok', 'token'])).toBe('a <redacted> <redacted> b')
  })
})
