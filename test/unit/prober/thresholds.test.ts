// One row per counting decision: what the worker publishes after each probe run.
import {afterEach, describe, expect, it, vi} from 'vitest'
import type {Probe} from '../../../src/api/types.js'
import type {ProbeType} from '../../../src/prober/probe.js'
import {harness, observed, probe, runtimeContainer, staticPod, UID, type Answer} from './harness.js'

afterEach(() => vi.useRealTimers())

const S = 'Success'
const F = 'Failure'
const U = 'Unknown'
const FIELD = {liveness: 'livenessProbe', readiness: 'readinessProbe', startup: 'startupProbe'} as const

describe('published results after each run', () => {
  it.each<[string, ProbeType, Partial<Probe>, Answer[], string[]]>([
    ['liveness: Failure only on the 3rd failure in a row', 'liveness', {failureThreshold: 3}, [F, F, F], [S, S, F]],
    ['liveness: a success in between resets the count', 'liveness', {failureThreshold: 3}, [F, F, S, F, F], [S, S, S, S, S]],
    ['liveness: failureThreshold 1 fails at once', 'liveness', {failureThreshold: 1}, [F], [F]],
    ['readiness: one success makes it ready', 'readiness', {}, [S, S], [S, S]],
    ['readiness: successThreshold 2 needs two in a row', 'readiness', {successThreshold: 2}, [S, F, S, S], [F, F, F, S]],
    ['readiness: Failure after 3 failures, ready again after 1 success', 'readiness', {}, [S, F, F, F, S], [S, S, S, F, S]],
    ['startup: Failure only on the 2nd failure', 'startup', {failureThreshold: 2}, [F, F], [U, F]],
    ['startup: one success starts the container', 'startup', {failureThreshold: 2}, [F, S], [U, S]],
  ])('%s', async (_name, type, extra, answers, want) => {
    const h = harness()
    const obs = observed(runtimeContainer('app', 'c1'))
    h.answer('p', ...answers)
    h.manager.syncPod(staticPod([{name: 'app', [FIELD[type]]: probe('p', extra)}]), obs)
    const got: string[] = []
    for (let i = 0; i < answers.length; i++) {
      await h.advance(i === 0 ? 0 : 1000)
      got.push(String(h.manager.results(UID, obs).get('app')?.[type]))
    }
    expect(got).toEqual(want)
    expect(h.count('p')).toBe(answers.length)
    h.manager.stop()
  })
})

describe('initial results of a new container', () => {
  it('readiness Failure, liveness Success, startup Unknown; none probed yet', () => {
    const h = harness()
    const obs = observed(runtimeContainer('app', 'c1'))
    const app = {name: 'app', livenessProbe: probe('live'), readinessProbe: probe('ready'), startupProbe: probe('start')}
    h.manager.syncPod(staticPod([app]), obs)
    expect(h.manager.results(UID, obs).get('app')).toEqual({liveness: S, readiness: F, startup: U})
    expect(h.calls).toEqual([])
    h.manager.stop()
  })
})

describe('onChange', () => {
  it('is called only when a published result changes', async () => {
    const h = harness()
    const obs = observed(runtimeContainer('app', 'c1'))
    h.answer('ready', S, S, S, F, F, F, F)
    h.manager.syncPod(staticPod([{name: 'app', readinessProbe: probe('ready')}]), obs)
    await h.advance(0)
    expect(h.changes).toEqual([UID]) // Failure → Success
    await h.advance(5000)
    expect(h.changes).toEqual([UID, UID]) // Success → Failure on the 3rd failure, once
    h.manager.stop()
  })
})
