import {describe, expect, it} from 'vitest'
import {isApiPath, parseRoute} from '../../../../src/server/kube-api/route.js'

describe('parseRoute', () => {
  it.each<[string, unknown]>([
    ['/version', {kind: 'version'}],
    ['/api', {kind: 'api'}],
    ['/apis', {kind: 'apis'}],
    ['/api/v1', {kind: 'apiV1'}],
    ['/api/v1/pods', {kind: 'pods'}],
    ['/api/v1/events', {kind: 'events'}],
    ['/api/v1/namespaces/default/pods', {kind: 'pods', namespace: 'default'}],
    ['/api/v1/namespaces/default/pods/web-n1', {kind: 'pods', namespace: 'default', name: 'web-n1'}],
    ['/api/v1/namespaces/default/pods/web-n1/log', {kind: 'podLog', namespace: 'default', name: 'web-n1'}],
    ['/api/v1/namespaces/default/pods/web-n1/exec', {kind: 'podSubresource', namespace: 'default', name: 'web-n1', subresource: 'exec'}],
    ['/api/v1/namespaces/kube-system/events', {kind: 'events', namespace: 'kube-system'}],
    ['/api/v1/namespaces/default/events/web-n1.1a', {kind: 'events', namespace: 'default', name: 'web-n1.1a'}],
    ['/api/v1/namespaces/default/secrets', {kind: 'unknown'}],
    ['/api/v1/nodes', {kind: 'unknown'}],
    ['/api/v2', {kind: 'unknown'}],
    ['/apis/apps/v1', {kind: 'unknown'}],
    ['/api/v1/namespaces/default/pods/web-n1/log/extra', {kind: 'unknown'}],
  ])('%s', (path, want) => {
    expect(parseRoute(path)).toEqual(want)
  })

  it.each(['/api/v1/namespaces/..%2F..%2Fetc/pods', '/api/v1/namespaces/Default/pods', '/api/v1/namespaces/default/pods/%2e%2e', '/api/v1/namespaces/default/pods/a%ZZ', `/api/v1/namespaces/${'a'.repeat(64)}/pods`])(
    'refuses the invalid segment in %s with a 400 Status',
    (path) => {
      expect(() => parseRoute(path)).toThrow(expect.objectContaining({status: expect.objectContaining({kind: 'Status', code: 400})}))
    },
  )

  it('claims only the API paths, never the node endpoints', () => {
    expect(['/api', '/api/v1/pods', '/apis', '/version'].every(isApiPath)).toBe(true)
    expect(['/pods', '/healthz', '/metrics', '/metrics/probes', '/apix', '/versions'].some(isApiPath)).toBe(false)
  })
})
