// Which API reads need the kubeconfig credential, and the bearer check: exact token only.
import {describe, expect, it} from 'vitest'
import {bearerMatches, needsCredential, requireCredential} from '../../../../src/server/kube-api/credential.js'
import {parseRoute} from '../../../../src/server/kube-api/route.js'
import {ApiError} from '../../../../src/server/kube-api/status.js'

const TOKEN = 'A'.repeat(43)

describe('needsCredential', () => {
  it.each([
    ['/api/v1/namespaces/default/pods/web/log', true],
    ['/api/v1/events', true],
    ['/api/v1/namespaces/default/events', true],
    ['/api/v1/namespaces/default/events/web.1', true],
    ['/api/v1/pods', false],
    ['/api/v1/namespaces/default/pods/web', false],
    ['/api', false],
    ['/version', false],
  ])('%s: %s', (path, needed) => {
    expect(needsCredential(parseRoute(path))).toBe(needed)
  })
})

describe('bearerMatches', () => {
  it.each([
    [`Bearer ${TOKEN}`, true],
    [`bearer ${TOKEN}`, true],
    [`Bearer  ${TOKEN} `, true],
    [undefined, false],
    ['', false],
    ['Bearer ', false],
    [`Basic ${TOKEN}`, false],
    [`Bearer ${TOKEN}x`, false],
    [`Bearer ${TOKEN.slice(1)}`, false],
    [`Bearer ${TOKEN} extra`, false],
    [TOKEN, false],
  ])('%j: %s', (header, ok) => {
    expect(bearerMatches(header, TOKEN)).toBe(ok)
  })

  it('an empty token matches nothing, not even an empty offer', () => {
    expect(bearerMatches('Bearer ', '')).toBe(false)
  })
})

describe('requireCredential', () => {
  it('answers 401 Unauthorized for a log without the token, and lets pods through', () => {
    const log = parseRoute('/api/v1/namespaces/default/pods/web/log')
    try {
      requireCredential(log, undefined, TOKEN)
      expect.unreachable()
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError)
      expect((err as ApiError).status).toMatchObject({kind: 'Status', code: 401, reason: 'Unauthorized'})
    }
    expect(() => requireCredential(log, `Bearer ${TOKEN}`, undefined)).toThrow(ApiError)
    expect(() => requireCredential(log, `Bearer ${TOKEN}`, TOKEN)).not.toThrow()
    expect(() => requireCredential(parseRoute('/api/v1/pods'), undefined, TOKEN)).not.toThrow()
  })
})
