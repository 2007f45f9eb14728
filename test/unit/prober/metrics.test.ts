import {afterEach, describe, expect, it, vi} from 'vitest'
import {harness, observed, probe, runtimeContainer, staticPod, UID} from './harness.js'
import type {ProbeIdentity, ProbeMetricResult, ProbeMetrics} from '../../../src/prober/metrics.js'

afterEach(() => vi.useRealTimers())

function recorder(): ProbeMetrics & {runs: [string, ProbeMetricResult][]; forgotten: string[]} {
  const name = (p: ProbeIdentity): string => `${p.namespace}/${p.pod}/${p.container}/${p.probeType}/${p.podUid}`
  const runs: [string, ProbeMetricResult][] = []
  const forgotten: string[] = []
  return {runs, forgotten, observe: (p, result) => void runs.push([name(p), result]), forget: (p) => void forgotten.push(name(p))}
}

describe('probe metrics', () => {
  it('reports every run that gave a result, not the ones that errored, and forgets a stopped worker', async () => {
    const metrics = recorder()
    const h = harness({metrics})
    h.answer('ready', 'Success', 'Failure', 'Error', 'Error', 'Error', 'Success')
    h.manager.syncPod(staticPod([{name: 'app', readinessProbe: probe('ready')}]), observed(runtimeContainer('app', 'c1')))
    await h.advance(0)
    await h.advance(1000)
    await h.advance(1000)
    await h.advance(1000)
    const id = `default/web-node1/app/readiness/${UID}`
    expect(metrics.runs).toEqual([
      [id, 'successful'],
      [id, 'failed'],
      [id, 'successful'],
    ])
    h.manager.stop()
    expect(metrics.forgotten).toEqual([id])
  })
})
