import {describe, expect, it} from 'vitest'
import {instrumentRuntime} from '../../../src/cri/instrumented.js'
import {silentLogger} from '../../../src/util/logger.js'
import {FakeRuntime} from '../../support/fake-runtime.js'

describe('instrumentRuntime: sandbox creation and container stats', () => {
  it('times RunPodSandbox once more by runtime handler, failures included, and passes ListContainerStats through', async () => {
    const fake = new FakeRuntime()
    const seen: [string, boolean][] = []
    const rt = instrumentRuntime(fake, {logger: silentLogger, metrics: {observe: () => {}, observeRunPodSandbox: (handler, _ms, error) => void seen.push([handler, error])}})
    const config = {metadata: {name: 'p', namespace: 'default', uid: 'u', attempt: 0}, labels: {}, annotations: {}, logDirectory: '/tmp'} as never
    await rt.runtime.runPodSandbox(config)
    await rt.runtime.runPodSandbox(config, 'runc')
    fake.failNext('RunPodSandbox')
    await expect(rt.runtime.runPodSandbox(config, 'kata')).rejects.toThrow()
    expect(seen).toEqual([['', false], ['runc', false], ['kata', true]])
    expect(await rt.runtime.listContainerStats()).toEqual([])
    expect(rt.callCounts()['ListContainerStats']).toBe(1)
  })
})
