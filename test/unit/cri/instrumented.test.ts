import {describe, expect, it} from 'vitest'
import type {ImageService, Runtime, RuntimeService} from '../../../src/cri/port.js'
import type {PodSandboxConfig} from '../../../src/cri/api.js'
import {instrumentRuntime, type CriMetrics} from '../../../src/cri/instrumented.js'
import {realClock, type Clock} from '../../../src/util/clock.js'
import type {LogFields, Logger} from '../../../src/util/logger.js'
import {CriError} from '../../../src/util/errors.js'

interface Line {
  v: number
  msg: string
  fields: LogFields
}

function recordingLogger(verbosity: number): Logger & {lines: Line[]} {
  const lines: Line[] = []
  return {
    lines,
    info: () => {},
    warn: () => {},
    error: () => {},
    debug: (v, msg, fields = {}) => {
      if (verbosity >= v) lines.push({v, msg, fields})
    },
    enabled: (v) => verbosity >= v,
  }
}

/** Every call advances the clock by 7 ms, so each CRI call "takes" 7 ms. */
function steppingClock(): Clock {
  let t = 1_000
  return {...realClock, now: () => (t += 7) - 7, sleep: async () => {}}
}

const notImplemented = (): Promise<never> => Promise.reject(new Error('not in this stub'))

function stubRuntime(): Runtime & {closed: boolean} {
  const runtime: RuntimeService = {
    version: async () => ({version: '0.1.0', runtimeName: 'stub', runtimeVersion: '1', runtimeApiVersion: 'v1'}),
    status: async () => [],
    runtimeFeatures: async () => ({handlers: [], supplementalGroupsPolicy: false}),
    runPodSandbox: async () => 'sb-1',
    stopPodSandbox: async () => {},
    removePodSandbox: async () => {},
    podSandboxStatus: notImplemented,
    listPodSandbox: async () => [],
    createContainer: async () => 'c-1',
    startContainer: async () => {},
    stopContainer: async () => {},
    removeContainer: async (id) => {
      throw new CriError('RemoveContainer', 'NotFound', `container ${id} not found`)
    },
    listContainers: async () => [],
    containerStatus: notImplemented,
    execSync: async () => ({stdout: Buffer.from('hi\n'), stderr: Buffer.alloc(0), exitCode: 0}),
    reopenContainerLog: async () => {},
    listContainerStats: async () => [],
  }
  const images: ImageService = {
    listImages: async () => [],
    imageStatus: async () => null,
    pullImage: async () => 'sha256:abc',
    removeImage: async () => {},
  }
  const rt = {runtime, images, closed: false, close: () => void (rt.closed = true)}
  return rt
}

const sandboxConfig: PodSandboxConfig = {
  metadata: {name: 'web-node1', uid: 'u', namespace: 'default', attempt: 1},
  hostname: '',
  logDirectory: '/tmp/logs',
  portMappings: [],
  labels: {},
  annotations: {},
}

describe('instrumentRuntime', () => {
  it('passes results through and counts calls per RPC, failures included', async () => {
    const rt = instrumentRuntime(stubRuntime(), {logger: recordingLogger(0)})
    expect(await rt.runtime.runPodSandbox(sandboxConfig)).toBe('sb-1')
    await rt.runtime.listPodSandbox()
    await rt.runtime.listPodSandbox({labelSelector: {a: 'b'}})
    expect(await rt.images.pullImage({image: 'busybox'})).toBe('sha256:abc')
    await expect(rt.runtime.removeContainer('c-9')).rejects.toMatchObject({code: 'NotFound', call: 'RemoveContainer'})
    expect(rt.callCounts()).toEqual({RunPodSandbox: 1, ListPodSandbox: 2, PullImage: 1, RemoveContainer: 1})
  })

  it('passes registry credentials to PullImage and logs only that there were some', async () => {
    const stub = stubRuntime()
    let seen: unknown
    stub.images.pullImage = async (_image, _sandbox, _opts, auth) => {
      seen = auth
      return 'sha256:abc'
    }
    const logger = recordingLogger(10)
    const rt = instrumentRuntime(stub, {logger})
    await rt.images.pullImage({image: 'r.io/app'}, undefined, undefined, {username: 'u', password: 'hunter2-pw'})
    expect(seen).toEqual({username: 'u', password: 'hunter2-pw'})
    expect(JSON.stringify(logger.lines)).not.toContain('hunter2-pw')
    expect(logger.lines.find((l) => l.fields['call'] === 'PullImage')?.fields).toMatchObject({image: 'r.io/app', withCredentials: true})
  })

  it('callCounts returns a snapshot, not a live view', async () => {
    const rt = instrumentRuntime(stubRuntime(), {logger: recordingLogger(0)})
    const before = rt.callCounts()
    await rt.runtime.version()
    expect(before).toEqual({})
    expect(rt.callCounts()).toEqual({Version: 1})
  })

  it('logs mutations at -v 2 with duration and result, and not reads', async () => {
    const logger = recordingLogger(2)
    const rt = instrumentRuntime(stubRuntime(), {logger, clock: steppingClock()})
    await rt.runtime.runPodSandbox(sandboxConfig)
    await rt.runtime.listPodSandbox()
    await rt.runtime.stopContainer('c-1', 30)
    expect(logger.lines).toEqual([
      {
        v: 2,
        msg: 'CRI call succeeded',
        fields: {call: 'RunPodSandbox', pod: 'default/web-node1', attempt: 1, durationMs: 7, podSandboxId: 'sb-1'},
      },
      {v: 2, msg: 'CRI call succeeded', fields: {call: 'StopContainer', containerId: 'c-1', timeoutSeconds: 30, durationMs: 7}},
    ])
  })

  it('logs reads at -v 5, and failures with their code', async () => {
    const logger = recordingLogger(5)
    const rt = instrumentRuntime(stubRuntime(), {logger, clock: steppingClock()})
    await rt.images.imageStatus({image: 'busybox'})
    await rt.runtime.removeContainer('c-9').catch(() => {})
    expect(logger.lines).toEqual([
      {v: 5, msg: 'CRI call succeeded', fields: {call: 'ImageStatus', image: 'busybox', durationMs: 7, present: false}},
      {
        v: 2,
        msg: 'CRI call failed',
        fields: {
          call: 'RemoveContainer',
          containerId: 'c-9',
          durationMs: 7,
          error: 'CRI RemoveContainer failed (NotFound): container c-9 not found',
          code: 'NotFound',
        },
      },
    ])
  })

  it('feeds metrics with operation, duration and outcome', async () => {
    const seen: [string, number, boolean][] = []
    const metrics: CriMetrics = {observe: (op, ms, error) => void seen.push([op, ms, error])}
    const rt = instrumentRuntime(stubRuntime(), {logger: recordingLogger(0), clock: steppingClock(), metrics})
    await rt.runtime.execSync('c-1', ['echo', 'hi'], 5)
    await rt.runtime.podSandboxStatus('sb-1').catch(() => {})
    expect(seen).toEqual([
      ['ExecSync', 7, false],
      ['PodSandboxStatus', 7, true],
    ])
  })

  it('close reaches the wrapped runtime', () => {
    const inner = stubRuntime()
    instrumentRuntime(inner, {logger: recordingLogger(0)}).close()
    expect(inner.closed).toBe(true)
  })
})
