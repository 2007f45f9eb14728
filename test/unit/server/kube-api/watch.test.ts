import {describe, expect, it} from 'vitest'
import type {Pod} from '../../../../src/api/types.js'
import {diffPods, snapshotOf} from '../../../../src/server/kube-api/pod-diff.js'
import {watchEventFor} from '../../../../src/server/kube-api/watch-events.js'
import {PodHub} from '../../../../src/server/kube-api/pod-hub.js'

const pod = (name: string, phase = 'Running'): Pod => ({metadata: {name, namespace: 'default', uid: `uid-${name}`}, spec: {containers: []}, status: {phase}})

describe('diffPods', () => {
  it('names each added, changed and removed pod once; an unchanged pod is not news', () => {
    const before = snapshotOf([pod('a'), pod('b'), pod('c')])
    const after = snapshotOf([pod('a'), pod('b', 'Failed'), pod('d')])
    expect(diffPods(before, after).map((c) => `${c.type} ${c.pod.metadata?.name}`)).toEqual(['MODIFIED b', 'ADDED d', 'DELETED c'])
  })
})

describe('watchEventFor: a change through a watch filter', () => {
  const running = (p: Pod): boolean => p.status?.phase === 'Running'
  it.each<[string, Parameters<typeof watchEventFor>[0], string | undefined]>([
    ['a matching pod appears', {type: 'ADDED', uid: 'a', pod: pod('a')}, 'ADDED'],
    ['a pod that does not match appears', {type: 'ADDED', uid: 'a', pod: pod('a', 'Failed')}, undefined],
    ['a matching pod changes', {type: 'MODIFIED', uid: 'a', pod: pod('a'), previous: pod('a')}, 'MODIFIED'],
    ['a pod starts matching', {type: 'MODIFIED', uid: 'a', pod: pod('a'), previous: pod('a', 'Pending')}, 'ADDED'],
    ['a pod stops matching', {type: 'MODIFIED', uid: 'a', pod: pod('a', 'Failed'), previous: pod('a')}, 'DELETED'],
    ['a matching pod goes', {type: 'DELETED', uid: 'a', pod: pod('a'), previous: pod('a')}, 'DELETED'],
    ['a pod that did not match goes', {type: 'DELETED', uid: 'a', pod: pod('a', 'Failed'), previous: pod('a', 'Failed')}, undefined],
  ])('%s', (_n, change, want) => {
    expect(watchEventFor(change, running)?.type).toBe(want)
  })
})

describe('PodHub', () => {
  function hub(pods: () => Pod[], historySize = 10): PodHub {
    return new PodHub({load: async () => pods(), now: () => 1000, sleep: async () => {}, minGapMs: 100, pollMs: 60_000, historySize, onError: () => {}})
  }

  it('stamps each change with the next resourceVersion and replays what a watch from a list missed', async () => {
    let pods = [pod('a'), pod('b')]
    const h = hub(() => pods)
    await h.refresh()
    const listed = Number(h.resourceVersion)
    expect(h.pods().map((p) => p.metadata?.resourceVersion)).toEqual(['1001', '1002'])
    pods = [pod('a', 'Failed')]
    await h.refresh()
    const missed = h.changesSince(listed)
    expect(missed).not.toBe('expired')
    expect((missed as Exclude<typeof missed, 'expired'>).map((c) => [c.type, c.pod.metadata?.name, c.resourceVersion])).toEqual([
      ['MODIFIED', 'a', listed + 1],
      ['DELETED', 'b', listed + 2],
    ])
    expect(h.changesSince(listed + 2)).toEqual([])
    // The unchanged content keeps its version.
    await h.refresh()
    expect(h.resourceVersion).toBe(String(listed + 2))
  })

  it('answers expired when the history no longer reaches back', async () => {
    let n = 0
    const h = hub(() => [pod('a', `P${n++}`)], 2)
    await h.refresh()
    const listed = Number(h.resourceVersion)
    for (let i = 0; i < 4; i++) await h.refresh()
    expect(h.changesSince(listed)).toBe('expired')
    expect(h.changesSince(Number(h.resourceVersion) - 1)).toHaveLength(1)
  })

  it('gives each caller a read that starts after it asked, and spaces reads by the gap however many callers ask', async () => {
    let t = 5000
    const sleeps: number[] = []
    const starts: number[] = []
    let version = 0
    const reads: (() => void)[] = []
    const h = new PodHub({
      load: () => {
        starts.push(t)
        const seen = version
        return new Promise<Pod[]>((resolve) => reads.push(() => resolve([pod('a', `P${seen}`)])))
      },
      now: () => t,
      sleep: async (ms) => {
        sleeps.push(ms)
        t += ms
      },
      minGapMs: 100,
      pollMs: 60_000,
      historySize: 10,
      onError: () => {},
    })
    const first = h.refresh()
    // A change made while the first read is under way, then 100 callers who saw it.
    version = 1
    const later = Array.from({length: 100}, () => h.refresh())
    t += 30
    reads.shift()!()
    await first
    expect(h.pods()[0]?.status?.phase).toBe('P0')
    await new Promise((r) => setImmediate(r))
    // One more read for all of them, begun the gap after the first one began.
    expect(starts).toEqual([5000, 5100])
    expect(sleeps).toEqual([70])
    reads.shift()!()
    await Promise.all(later)
    expect(h.pods()[0]?.status?.phase).toBe('P1')
    // Past the gap, a caller's read starts at once.
    t += 500
    const again = h.refresh()
    expect(starts).toEqual([5000, 5100, 5600])
    reads.shift()!()
    await again
    expect(sleeps).toEqual([70])
  })

  it('does not hold reads off when the clock is set back', async () => {
    let t = 10_000
    let loads = 0
    const sleeps: number[] = []
    const h = new PodHub({load: async () => (loads++, [pod('a')]), now: () => t, sleep: async (ms) => void sleeps.push(ms), minGapMs: 100, pollMs: 60_000, historySize: 10, onError: () => {}})
    await h.refresh()
    t -= 3_600_000
    await h.refresh()
    expect(loads).toBe(2)
    expect(sleeps).toEqual([])
  })

  it('fails a read that fails (a list answers an error, never stale pods as fresh) and keeps its pods for the watches', async () => {
    let fail = false
    const h = new PodHub({load: async () => (fail ? Promise.reject(new Error('runtime down')) : [pod('a')]), now: () => 0, sleep: async () => {}, minGapMs: 100, pollMs: 60_000, historySize: 10, onError: () => {}})
    await h.refresh()
    fail = true
    await expect(h.refresh()).rejects.toThrow('runtime down')
    expect(h.pods()).toHaveLength(1)
    fail = false
    await h.refresh()
  })
})
