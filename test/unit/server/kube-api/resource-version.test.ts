// resourceVersion for list and watch as the API server's watch cache answers it.
import {describe, expect, it} from 'vitest'
import type {Pod} from '../../../../src/api/types.js'
import {checkGetVersion, listAt, watchStart} from '../../../../src/server/kube-api/resource-version.js'
import {bookmarkTimes, watchSeconds} from '../../../../src/server/kube-api/pod-watch.js'
import {PodHub} from '../../../../src/server/kube-api/pod-hub.js'
import type {ApiError} from '../../../../src/server/kube-api/status.js'

const V = {current: 200, floor: 100}

function status(f: () => unknown): {code: number; reason: string; message: string} {
  try {
    f()
  } catch (err) {
    const {code, reason, message} = (err as ApiError).status
    return {code, reason, message}
  }
  throw new Error('accepted')
}

describe('listAt', () => {
  it.each<[string, '' | 'Exact' | 'NotOlderThan', ReturnType<typeof listAt>]>([
    ['', '', {kind: 'current'}],
    ['0', '', {kind: 'current'}],
    ['0', 'NotOlderThan', {kind: 'current'}],
    ['150', '', {kind: 'current'}],
    ['50', 'NotOlderThan', {kind: 'current'}],
    ['200', 'Exact', {kind: 'current'}],
    ['150', 'Exact', {kind: 'at', version: 150}],
    ['100', 'Exact', {kind: 'at', version: 100}],
  ])('resourceVersion=%j match=%j', (resourceVersion, resourceVersionMatch, want) => {
    expect(listAt({resourceVersion, resourceVersionMatch}, V)).toEqual(want)
  })

  it('a version newer than any handed out: 504 Too large resource version (the client lists again)', () => {
    expect(status(() => listAt({resourceVersion: '201', resourceVersionMatch: ''}, V))).toEqual({code: 504, reason: 'Timeout', message: 'Too large resource version: 201, current: 200'})
  })

  it('Exact before the history: 410 Expired', () => {
    expect(status(() => listAt({resourceVersion: '99', resourceVersionMatch: 'Exact'}, V))).toEqual({code: 410, reason: 'Expired', message: 'The resourceVersion for the provided list is too old.'})
  })
})

describe('watchStart', () => {
  const w = (resourceVersion: string, sendInitialEvents: boolean | undefined, allowWatchBookmarks = false) => watchStart({resourceVersion, sendInitialEvents, allowWatchBookmarks}, V)
  it.each<[string, boolean | undefined, boolean, ReturnType<typeof watchStart>]>([
    ['', true, false, {kind: 'initial', endBookmark: false}],
    ['', true, true, {kind: 'initial', endBookmark: true}],
    ['150', true, true, {kind: 'initial', endBookmark: true}],
    ['', false, false, {kind: 'since', version: 200}],
    ['150', undefined, false, {kind: 'since', version: 150}],
    ['100', undefined, false, {kind: 'since', version: 100}],
    // Newer than this node's: only what comes after it.
    ['300', undefined, false, {kind: 'since', version: 300}],
  ])('resourceVersion=%j sendInitialEvents=%s bookmarks=%s', (rv, sie, bm, want) => {
    expect(w(rv, sie, bm)).toEqual(want)
  })

  it('from a version too old: the ERROR event with the API server Status', () => {
    expect(w('99', undefined)).toEqual({kind: 'expired', status: expect.objectContaining({code: 410, reason: 'Expired', message: 'too old resource version: 99 (200)'})})
  })
})

describe('bookmarkTimes', () => {
  it('about once a minute and two seconds before the watch ends', () => {
    expect(bookmarkTimes(5_000)).toEqual([3_000])
    expect(bookmarkTimes(150_000)).toEqual([60_000, 120_000, 148_000])
    expect(bookmarkTimes(1_000)).toEqual([])
  })
})

describe('PodHub.podsAt', () => {
  const pod = (name: string, phase = 'Running'): Pod => ({metadata: {name, namespace: 'default', uid: `uid-${name}`}, spec: {containers: []}, status: {phase}})
  it('undoes every change after the version: an Exact list sees the pods as they were', async () => {
    let pods = [pod('a'), pod('b')]
    const h = new PodHub({load: async () => pods, now: () => 1000, sleep: async () => {}, minGapMs: 100, pollMs: 60_000, historySize: 10, onError: () => {}})
    await h.refresh()
    const v0 = Number(h.resourceVersion)
    pods = [pod('a', 'Failed'), pod('c')]
    await h.refresh()
    const view = (ps: Pod[]) => ps.map((p) => `${p.metadata?.name} ${p.status?.phase} ${p.metadata?.resourceVersion}`).sort()
    expect(view(h.podsAt(v0))).toEqual(['a Running 1001', 'b Running 1002'])
    expect(view(h.podsAt(Number(h.resourceVersion)))).toEqual(view(h.pods()))
    expect(h.versions()).toEqual({current: v0 + 3, floor: v0})
  })
})

describe('checkGetVersion', () => {
  it('a get reads "", "0" and a version up to the current one as the current object', () => {
    for (const rv of [undefined, '', '0', '150', '200']) expect(() => checkGetVersion(rv, 200)).not.toThrow()
  })
  it('a newer version is 504 Too large; one that is no number 400', () => {
    expect(status(() => checkGetVersion('201', 200))).toMatchObject({code: 504, reason: 'Timeout'})
    expect(status(() => checkGetVersion('x', 200))).toMatchObject({code: 400, reason: 'BadRequest'})
  })
})

describe('watchSeconds', () => {
  it.each<[number | undefined, number]>([
    [undefined, 1800],
    [0, 1800],
    [3, 3],
    [999_999_999_999, 1800],
    // The API server's timer for a negative timeout has fired already: the watch ends at once.
    [-5, 0],
  ])('timeoutSeconds=%s runs %i s', (t, want) => {
    expect(watchSeconds(t)).toBe(want)
  })
})
