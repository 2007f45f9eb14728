import {describe, expect, it} from 'vitest'
import type {RuntimeService} from '../../../src/cri/port.js'
import {expandExecProbe, probeTimings, runProbe} from '../../../src/prober/probe.js'
import {closedPort} from '../../integration/prober/listen.js'

const target = {podIP: '127.0.0.1', containerId: 'c1', ports: []}

function execRuntime(calls: unknown[][]): RuntimeService {
  return {
    execSync: async (...args: unknown[]) => {
      calls.push(args)
      return {exitCode: 0, stdout: Buffer.from(''), stderr: Buffer.from('')}
    },
  } as Partial<RuntimeService> as RuntimeService
}

describe('runProbe', () => {
  it.each([
    ['the default timeout of 1s', undefined, 1],
    ['timeoutSeconds', 5, 5],
  ])('runs an exec probe in the target container with %s', async (_name, timeoutSeconds, want) => {
    const calls: unknown[][] = []
    const probe = timeoutSeconds === undefined ? {exec: {command: ['true']}} : {exec: {command: ['true']}, timeoutSeconds}
    expect((await runProbe(probe, target, execRuntime(calls))).result).toBe('Success')
    // The fourth argument (per-call options) carries no signal for a probe.
    expect(calls.map((c) => c.slice(0, 3))).toEqual([['c1', ['true'], want]])
  })

  it('dispatches tcpSocket (and so httpGet and grpc) to its handler', async () => {
    const out = await runProbe({tcpSocket: {port: await closedPort()}}, target, execRuntime([]))
    expect(out.result).toBe('Failure')
  })

  it('errors on a probe without a handler', async () => {
    expect((await runProbe({periodSeconds: 3}, target, execRuntime([]))).result).toBe('Error')
  })
})

describe('probeTimings', () => {
  it('applies the API defaults', () => {
    expect(probeTimings({}, 'readiness')).toEqual({initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3})
  })

  it.each([
    ['readiness', 3],
    ['liveness', 1],
    ['startup', 1],
  ] as const)('%s probes use successThreshold %i when 3 is asked', (type, want) => {
    expect(probeTimings({successThreshold: 3}, type).successThreshold).toBe(want)
  })
})

describe('expandExecProbe', () => {
  it('expands $(VAR) from literal env values only; valueFrom variables become empty', () => {
    const probe = {exec: {command: ['sh', '-c', 'test $(MODE) = on && echo $(SECRET)$(UNSET)']}}
    const container = {
      name: 'app',
      env: [
        {name: 'MODE', value: 'on'},
        {name: 'SECRET', valueFrom: {secretKeyRef: {name: 's', key: 'k'}}},
      ],
    }
    expect(expandExecProbe(probe, container).exec?.command).toEqual(['sh', '-c', 'test on = on && echo $(UNSET)'])
  })
})
