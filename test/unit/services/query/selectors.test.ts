import {describe, expect, it} from 'vitest'
import {InvalidInputError} from '../../../../src/util/errors.js'
import {POD_FIELDS, matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector, podFields} from '../../../../src/services/query/selectors.js'

const labels = {app: 'web', tier: 'front', 'example.com/team': 'a'}

describe('label selectors as kubectl reads them', () => {
  it.each([
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (web,db)', true],
    ['app in (db, cache)', false],
    ['app notin (db)', true],
    ['missing notin (db)', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['example.com/team=a', true],
    ['app=web,tier=front', true],
    ['app=web, tier in (back)', false],
    ['app = web', true],
    ['empty=', false],
    ['', true],
  ])('%s selects the pod: %s', (text, expected) => {
    expect(matchesLabels(parseLabelSelector(text), labels)).toBe(expected)
  })

  it('a label with an empty value matches key=', () => {
    expect(matchesLabels(parseLabelSelector('empty='), {empty: ''})).toBe(true)
  })

  it.each(['app in (web', 'a=b,,c=d', 'app=we b', '-bad=x', 'app=' + 'x'.repeat(64)])('refuses %s as invalid input naming the flag', (text) => {
    expect(() => parseLabelSelector(text)).toThrow(InvalidInputError)
    expect(() => parseLabelSelector(text)).toThrow(/^--selector: /)
  })
})

describe('field selectors on pods', () => {
  const pod = {metadata: {name: 'web-n1', namespace: 'default'}, spec: {containers: [], restartPolicy: 'Always' as const}, status: {phase: 'Running'}}

  it.each([
    ['status.phase=Running', true],
    ['status.phase!=Running', false],
    ['metadata.namespace==default,metadata.name=web-n1', true],
    ['metadata.name=web', false],
    ['spec.restartPolicy=Always', true],
    ['status.podIP=', true],
    ['spec.nodeName!=', false],
    // As the API server: an unset hostNetwork is false (the same list serves the read-only API).
    ['spec.hostNetwork=false', true],
    ['spec.hostNetwork=true', false],
  ])('%s selects the pod: %s', (text, expected) => {
    expect(matchesFields(parseFieldSelector(text, POD_FIELDS), podFields(pod))).toBe(expected)
  })

  it('refuses a field kubectl does not support on pods, listing the ones it does', () => {
    expect(() => parseFieldSelector('metadata.labels=x', POD_FIELDS)).toThrow(/field "metadata.labels" is not supported for pods; use one of metadata.name, .*status.nominatedNodeName/)
  })

  it('refuses a requirement without an operator', () => {
    expect(() => parseFieldSelector('status.phase', POD_FIELDS)).toThrow(InvalidInputError)
  })
})
