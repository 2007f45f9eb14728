import {afterEach, describe, expect, it, vi} from 'vitest'
import {harness, observed, probe, runtimeContainer, staticPod, T0, UID} from './harness.js'

afterEach(() => vi.useRealTimers())

const live = {name: 'app', livenessProbe: probe('live', {failureThreshold: 1})}

describe('ProbeManager', () => {
  it('holds a liveness worker after a published Failure until a new container ID appears', async () => {
    const h = harness()
    const first = observed(runtimeContainer('app', 'c1'))
    h.answer('live', 'Failure')
    h.manager.syncPod(staticPod([live]), first)
    await h.advance(0)
    expect(h.manager.results(UID, first).get('app')).toEqual({liveness: 'Failure'})
    await h.advance(5000)
    expect(h.count('live')).toBe(1)

    const second = observed(runtimeContainer('app', 'c2', {createdAt: T0 + 5000, startedAt: T0 + 5000}), runtimeContainer('app', 'c1', {state: 'exited'}))
    h.manager.syncPod(staticPod([live]), second)
    expect(h.manager.results(UID, second).get('app')).toEqual({liveness: 'Success'})
    await h.advance(0)
    expect(h.count('live')).toBe(2)
    h.manager.stop()
  })

  it('never returns a result for an older container than the observed one', async () => {
    const h = harness()
    const app = {name: 'app', readinessProbe: probe('ready')}
    const first = observed(runtimeContainer('app', 'c1'))
    h.manager.syncPod(staticPod([app]), first)
    await h.advance(0)
    expect(h.manager.results(UID, first).get('app')).toEqual({readiness: 'Success'})
    const second = observed(runtimeContainer('app', 'c2', {createdAt: T0 + 1}))
    expect(h.manager.results(UID, second).size).toBe(0)
    h.manager.syncPod(staticPod([app]), second)
    expect(h.manager.results(UID, second).get('app')).toEqual({readiness: 'Failure'})
    h.manager.stop()
  })

  it('runs liveness and readiness only once the startup probe succeeded, and stops the startup probe then', async () => {
    const h = harness()
    const obs = observed(runtimeContainer('app', 'c1'))
    h.answer('start', 'Failure')
    // Readiness ticks every 10s, yet runs as soon as the container has started.
    const app = {name: 'app', startupProbe: probe('start'), livenessProbe: probe('live'), readinessProbe: probe('ready', {periodSeconds: 10})}
    h.manager.syncPod(staticPod([app]), obs)
    await h.advance(0)
    expect(h.calls).toEqual(['start'])
    await h.advance(1000)
    expect(h.calls.slice(0, 2)).toEqual(['start', 'start'])
    expect([h.count('live'), h.count('ready')]).toEqual([1, 1])
    expect(h.manager.results(UID, obs).get('app')).toEqual({startup: 'Success', liveness: 'Success', readiness: 'Success'})
    await h.advance(1000)
    expect([h.count('start'), h.count('live'), h.count('ready')]).toEqual([2, 2, 1])
    h.manager.stop()
  })

  it('waits initialDelaySeconds after the container started', async () => {
    const h = harness()
    const obs = observed(runtimeContainer('app', 'c1'))
    h.manager.syncPod(staticPod([{name: 'app', livenessProbe: probe('live', {initialDelaySeconds: 3})}]), obs)
    await h.advance(2999)
    expect(h.count('live')).toBe(0)
    await h.advance(1)
    expect(h.count('live')).toBe(1)
    h.manager.stop()
  })

  it('retries a probe that errors 3 times, then ignores that run without counting it', async () => {
    const h = harness()
    const obs = observed(runtimeContainer('app', 'c1'))
    h.answer('live', 'Error', 'Error', 'Error', 'Failure', 'Error', 'Failure')
    h.manager.syncPod(staticPod([{name: 'app', livenessProbe: probe('live', {failureThreshold: 2})}]), obs)
    await h.advance(0)
    expect(h.count('live')).toBe(3)
    expect(h.warnings).toEqual(['liveness probe errored; this run is ignored'])
    await h.advance(1000) // one failure: not yet published
    expect(h.manager.results(UID, obs).get('app')).toEqual({liveness: 'Success'})
    await h.advance(1000) // an error, then a failure on the retry: the second failure
    expect(h.manager.results(UID, obs).get('app')).toEqual({liveness: 'Failure'})
    expect(h.count('live')).toBe(6)
    h.manager.stop()
  })

  it('has no worker for a container that is not running, and stops workers of removed probes and pods', async () => {
    const h = harness()
    const exited = observed(runtimeContainer('app', 'c1', {state: 'exited'}))
    const app = {name: 'app', livenessProbe: probe('live'), readinessProbe: probe('ready')}
    h.manager.syncPod(staticPod([app]), exited)
    await h.advance(3000)
    expect([h.calls, h.manager.results(UID, exited).size]).toEqual([[], 0])

    const running = observed(runtimeContainer('app', 'c1'))
    h.manager.syncPod(staticPod([app]), running)
    h.manager.syncPod(staticPod([{name: 'app', livenessProbe: probe('live')}]), running)
    expect(h.manager.results(UID, running).get('app')).toEqual({liveness: 'Success'})
    await h.advance(0)
    expect(h.calls).toEqual(['live'])

    h.manager.removePod(UID)
    await h.advance(5000)
    expect([h.calls, h.manager.results(UID, running).size]).toEqual([['live'], 0])
  })

  it('probes the pod IP of the container sandbox, or the host IP for a host-network pod', async () => {
    const h = harness({hostIP: '192.0.2.10'})
    const app = {name: 'app', ports: [{name: 'http', containerPort: 8080}], readinessProbe: probe('ready')}
    const obs = observed(runtimeContainer('app', 'c1'))
    h.manager.syncPod(staticPod([app]), obs)
    await h.advance(0)
    expect(h.targets[0]).toEqual({podIP: '10.88.0.5', containerId: 'c1', ports: app.ports})
    h.manager.syncPod(staticPod([app]), {...obs, sandboxes: [{...obs.sandboxes[0]!, ip: ''}]})
    await h.advance(1000)
    expect(h.targets[1]?.podIP).toBe('192.0.2.10')
    h.manager.stop()
  })
})

describe('first probe of a new worker', () => {
  it('is spread over one period right after the manager started', async () => {
    const h = harness({random: () => 0.5})
    h.manager.syncPod(staticPod([{name: 'app', livenessProbe: probe('live', {periodSeconds: 10})}]), observed(runtimeContainer('app', 'c1')))
    await h.advance(4999)
    expect(h.count('live')).toBe(0)
    await h.advance(1)
    expect(h.count('live')).toBe(1)
    await h.advance(10_000)
    expect(h.count('live')).toBe(2)
    h.manager.stop()
  })

  it('is immediate for a container that started after the manager did, however long its period', async () => {
    const h = harness({random: () => 0.5})
    // The manager started at T0; the container a second later (this process started it).
    await h.advance(2000)
    h.manager.syncPod(staticPod([{name: 'app', readinessProbe: probe('ready', {periodSeconds: 3600})}]), observed(runtimeContainer('app', 'c1', {startedAt: T0 + 1000})))
    await h.advance(0)
    expect(h.count('ready')).toBe(1)
    h.manager.stop()
  })

  it('an adopted container is never killed by liveness before its first probe ran (after a restart)', async () => {
    const h = harness({random: () => 0.9})
    const adopted = observed(runtimeContainer('app', 'c1', {startedAt: T0 - 3_600_000}))
    h.manager.syncPod(staticPod([{name: 'app', livenessProbe: probe('live', {periodSeconds: 10})}]), adopted)
    // Until the first probe (spread over the period after the restart) its liveness is Success.
    expect(h.manager.results(UID, adopted).get('app')).toEqual({liveness: 'Success'})
    await h.advance(8_999)
    expect(h.count('live')).toBe(0)
    expect(h.manager.results(UID, adopted).get('app')).toEqual({liveness: 'Success'})
    h.manager.stop()
  })

  it('is immediate once the manager has run longer than the period', async () => {
    const h = harness({random: () => 0.5, age: 60_000})
    h.manager.syncPod(staticPod([{name: 'app', livenessProbe: probe('live', {periodSeconds: 10})}]), observed(runtimeContainer('app', 'c1')))
    await h.advance(0)
    expect(h.count('live')).toBe(1)
    h.manager.stop()
  })
})
