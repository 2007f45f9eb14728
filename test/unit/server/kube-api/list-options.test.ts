// The query of a list or watch as the API server reads it: every spelling of a boolean the
// official clients send, Go's integers, and ListOptions validation with the API server's Status.
import {describe, expect, it} from 'vitest'
import {parseListOptions} from '../../../../src/server/kube-api/list-options.js'
import {wantsPretty} from '../../../../src/server/kube-api/negotiate.js'
import {parseQuery} from '../../../../src/server/kube-api/query.js'
import type {ApiError} from '../../../../src/server/kube-api/status.js'

const opts = (s: string) => parseListOptions(parseQuery(`/api/v1/pods?${s}`))

function refusal(s: string): {code: number; reason: string; message: string} {
  try {
    opts(s)
  } catch (err) {
    const {code, reason, message} = (err as ApiError).status
    return {code, reason, message}
  }
  throw new Error(`${s} was accepted`)
}

describe('booleans (watch, allowWatchBookmarks, sendInitialEvents, follow…)', () => {
  // Go's strconv.ParseBool spellings, which clients send (Python's client: True), then what else
  // the API server takes: it reads false only from 0 and false in any case, true from the rest.
  it.each<[string, boolean]>([
    ['1', true],
    ['t', true],
    ['T', true],
    ['TRUE', true],
    ['true', true],
    ['True', true],
    ['0', false],
    ['FALSE', false],
    ['false', false],
    ['False', false],
    ['fAlSe', false],
    // Not false to the API server, though ParseBool would read it so.
    ['f', true],
    ['F', true],
    ['yes', true],
    ['', true],
  ])('watch=%j is %s', (v, want) => {
    expect(opts(`watch=${encodeURIComponent(v)}`).watch).toBe(want)
    expect(opts(`allowWatchBookmarks=${encodeURIComponent(v)}`).allowWatchBookmarks).toBe(want)
  })

  it('an absent boolean is false; an absent sendInitialEvents is unset', () => {
    expect(opts('')).toMatchObject({watch: false, allowWatchBookmarks: false, sendInitialEvents: undefined})
  })
})

describe('pretty', () => {
  it.each<[string | undefined, string | undefined, boolean]>([
    ['true', undefined, true],
    ['T', undefined, true],
    ['1', undefined, true],
    ['false', 'curl/8.0', false],
    ['F', undefined, false],
    // ParseBool fails: not pretty.
    ['yes', undefined, false],
    [undefined, 'curl/8.0', true],
    [undefined, 'Mozilla/5.0 (X11)', true],
    [undefined, 'kubectl/v1.37.0', false],
    [undefined, 'OpenAPI-Generator/22.6.0/python', false],
  ])('pretty=%s with user agent %s: %s', (pretty, ua, want) => {
    expect(wantsPretty(pretty, ua)).toBe(want)
  })
})

describe('ListOptions', () => {
  it('reads what an informer sends', () => {
    expect(opts('watch=true&resourceVersion=123&allowWatchBookmarks=true&timeoutSeconds=300&labelSelector=app%3Dweb&fieldSelector=spec.nodeName%3Dn1')).toEqual({
      watch: true,
      resourceVersion: '123',
      resourceVersionMatch: '',
      allowWatchBookmarks: true,
      sendInitialEvents: undefined,
      timeoutSeconds: 300,
      labelSelector: 'app=web',
      fieldSelector: 'spec.nodeName=n1',
    })
  })

  it('a watch from now sends the current state first, as the API server defaults it', () => {
    expect(opts('watch=1')).toMatchObject({sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan'})
    expect(opts('watch=1&resourceVersion=0')).toMatchObject({sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan'})
    expect(opts('watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan')).toMatchObject({sendInitialEvents: false})
  })

  it('limit is read, and ignored: every list is one page', () => {
    expect(opts('limit=500')).toMatchObject({watch: false})
  })

  it.each<[string, number, string, string]>([
    ['timeoutSeconds=abc', 400, 'BadRequest', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['limit=99999999999999999999', 400, 'BadRequest', 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
    ['resourceVersionMatch=Exact', 422, 'Invalid', 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ['resourceVersion=1&resourceVersionMatch=Newest', 422, 'Invalid', 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""'],
    ['resourceVersion=0&resourceVersionMatch=Exact', 422, 'Invalid', 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
    ['sendInitialEvents=true', 422, 'Invalid', 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
    ['watch=true&resourceVersionMatch=NotOlderThan', 422, 'Invalid', 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
    ['watch=true&sendInitialEvents=true', 422, 'Invalid', 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    [
      'watch=true&sendInitialEvents=true&resourceVersionMatch=Exact',
      422,
      'Invalid',
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    ],
    ['continue=abc', 400, 'BadRequest', 'invalid continue token: kube-node returns every item in one list and hands out no continue tokens'],
    ['resourceVersion=abc', 400, 'BadRequest', 'invalid resource version "abc": expected a resourceVersion from a list or watch'],
  ])('%s: %i %s', (s, code, reason, message) => {
    expect(refusal(s)).toEqual({code, reason, message})
  })
})
