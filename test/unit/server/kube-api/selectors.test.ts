import {describe, expect, it} from 'vitest'
import {matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector} from '../../../../src/server/kube-api/selectors.js'
import {ApiError} from '../../../../src/server/kube-api/status.js'

const labels = {app: 'web', tier: 'front', 'example.com/canary': 'yes'}

describe('label selectors', () => {
  it.each<[string, boolean]>([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app=db', false],
    ['app in (web, db)', true],
    ['app notin (web)', false],
    ['tier,app=web', true],
    ['missing', false],
    ['!missing', true],
    ['!tier', false],
    ['example.com/canary=yes', true],
    ['missing!=x', true],
    ['app in (db),tier=front', false],
  ])('%s matches: %s', (selector, want) => {
    expect(matchesLabels(parseLabelSelector(selector), labels)).toBe(want)
  })

  it('rejects a malformed key or value with a 400 Status', () => {
    for (const bad of ['a b=c', 'app=we b', 'app=-x']) {
      expect(() => parseLabelSelector(bad)).toThrow(ApiError)
    }
  })
})

describe('field selectors', () => {
  const supported = new Set(['metadata.name', 'status.phase'])
  const fields = {'metadata.name': 'web-n1', 'status.phase': 'Running'}

  it.each<[string, boolean]>([
    ['metadata.name=web-n1', true],
    ['metadata.name==web-n1', true],
    ['metadata.name!=web-n1', false],
    ['status.phase=Running,metadata.name!=db-n1', true],
    ['status.phase=Pending', false],
  ])('%s matches: %s', (selector, want) => {
    expect(matchesFields(parseFieldSelector(selector, supported), fields)).toBe(want)
  })

  it('names an unsupported field as the API server does', () => {
    expect(() => parseFieldSelector('spec.bogus=x', supported)).toThrow('field label not supported: spec.bogus')
  })
})
