// null is "not set" once a manifest is valid, as in Go's decoding.
import {describe, expect, it} from 'vitest'
import {withoutNulls} from '../../../src/manifest/without-nulls.js'

describe('withoutNulls', () => {
  it.each<[string, unknown, unknown]>([
    ['a null field is dropped', {a: 1, b: null}, {a: 1}],
    ['deep inside objects and lists', {spec: {affinity: {nodeAffinity: {required: null}}, list: [{x: null, y: 2}]}}, {spec: {affinity: {nodeAffinity: {}}, list: [{y: 2}]}}],
    ['a null list item is kept (validation refuses it)', [1, null], [1, null]],
    ['scalars pass through', 'x', 'x'],
  ])('%s', (_name, input, expected) => {
    expect(withoutNulls(input)).toEqual(expected)
  })

  it('copies: the input is not changed', () => {
    const input = {a: {b: null}}
    withoutNulls(input)
    expect(input).toEqual({a: {b: null}})
  })

  it('a __proto__ key stays a plain key', () => {
    const out = withoutNulls(JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>
    expect(Object.keys(out)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
  })
})
