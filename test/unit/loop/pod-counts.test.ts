import {describe, expect, it} from 'vitest'
import {countPods, type DesiredPod, type TerminatingPod} from '../../../src/loop/pod-counts.js'

const working = (desired: DesiredPod[], terminating: TerminatingPod[]): Record<string, number> =>
  Object.fromEntries(countPods(desired, terminating).working.filter((w) => w.count > 0).map((w) => [`${w.lifecycle}/${w.config}`, w.count]))

describe('countPods', () => {
  it('counts every pod a source wants as desired, and the admitted unfinished ones as active', () => {
    const c = countPods([{uid: 'a', rejected: false, phase: 'Running'}, {uid: 'b', rejected: false}, {uid: 'c', rejected: true}, {uid: 'd', rejected: false, phase: 'Failed'}], [])
    expect(c.desired).toBe(4)
    expect(c.active).toBe(2)
  })

  it.each<[string, DesiredPod[], TerminatingPod[], Record<string, number>]>([
    ['a running pod is in sync', [{uid: 'a', rejected: false, phase: 'Running'}], [], {'sync/desired': 1}],
    ['a finished pod is terminated', [{uid: 'a', rejected: false, phase: 'Succeeded'}], [], {'terminated/desired': 1}],
    ['a desired pod being killed is terminating', [{uid: 'a', rejected: false, phase: 'Running'}], [{uid: 'a', hadSpec: true}], {'terminating/desired': 1}],
    ['a pod whose manifest went away is an orphan', [], [{uid: 'x', hadSpec: true}], {'terminating/orphan': 1}],
    ['a pod only the runtime knows is runtime_only', [], [{uid: 'x', hadSpec: false}], {'terminating/runtime_only': 1}],
    ['a rejected pod is never worked on', [{uid: 'a', rejected: true}], [], {}],
  ])('%s', (_name, desired, terminating, expected) => {
    expect(working(desired, terminating)).toEqual(expected)
  })

  it('lists every lifecycle and config pair, zeros included', () => {
    expect(countPods([], []).working).toHaveLength(9)
  })
})
