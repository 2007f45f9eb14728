import {describe, expect, it} from 'vitest'
import type {ContainerStats} from '../../../src/cri/api.js'
import type {RuntimeContainer, RuntimePod} from '../../../src/kuberuntime/model.js'
import {renderResourceMetrics} from '../../../src/metrics/resources.js'
import {resourceMetrics} from '../../../src/metrics/resource-collector.js'
import {FakeRuntime} from '../../support/fake-runtime.js'
import {realClock} from '../../../src/util/clock.js'
import {FakeClock} from '../../support/fake-clock.js'
import type {Logger} from '../../../src/util/logger.js'

function container(id: string, name: string, over: Partial<RuntimeContainer> = {}): RuntimeContainer {
  return {
    id, sandboxId: 's1', name, type: 'regular', state: 'running', restartCount: 0, hash: 'h',
    createdAt: 1_700_000_000_000, startedAt: 1_700_000_001_500, finishedAt: 0, exitCode: 0, reason: '', message: '',
    image: 'busybox', imageRef: 'sha256:1', logPath: '', ...over,
  }
}

function pod(name: string, containers: RuntimeContainer[], namespace = 'default'): RuntimePod {
  return {uid: `uid-${name}`, name, namespace, manifestName: name, sandboxes: [], containers}
}

function stats(id: string, cpuNs: number, bytes: number, at = 1_700_000_100_000): ContainerStats {
  return {id, metadata: {name: id, attempt: 0}, labels: {}, cpuUsageCoreNanoSeconds: {timestampMs: at, value: cpuNs}, memoryWorkingSetBytes: {timestampMs: at + 1, value: bytes}}
}

const node = {cpuSeconds: 1234.5, workingSetBytes: 2_000_000_000}

describe('renderResourceMetrics', () => {
  it('reports containers, pods and the node under the kubelet names, labels and sample timestamps', () => {
    const text = renderResourceMetrics({
      node,
      nodeAt: 1_700_000_200_000,
      pods: [pod('web-n1', [container('c1', 'app'), container('c2', 'sidecar')])],
      stats: [stats('c1', 2_500_000_000, 1000), stats('c2', 500_000_000, 24)],
    })
    expect(text).toContain('# TYPE container_cpu_usage_seconds_total counter\n')
    expect(text).toContain('container_cpu_usage_seconds_total{container="app",pod="web-n1",namespace="default"} 2.5 1700000100000\n')
    expect(text).toContain('container_memory_working_set_bytes{container="sidecar",pod="web-n1",namespace="default"} 24 1700000100001\n')
    expect(text).toContain('container_start_time_seconds{container="app",pod="web-n1",namespace="default"} 1700000001.5\n')
    expect(text).toContain('pod_cpu_usage_seconds_total{pod="web-n1",namespace="default"} 3 1700000100000\n')
    expect(text).toContain('pod_memory_working_set_bytes{pod="web-n1",namespace="default"} 1024 1700000100001\n')
    expect(text).toContain('# TYPE node_cpu_usage_seconds_total counter\nnode_cpu_usage_seconds_total 1234.5 1700000200000\n')
    expect(text).toContain('# TYPE node_memory_working_set_bytes gauge\nnode_memory_working_set_bytes 2000000000 1700000200000\n')
    expect(text).toContain('# TYPE resource_scrape_error gauge\nresource_scrape_error 0\n')
  })

  it('leaves out exited containers, containers of other pods and pods with nothing running', () => {
    const text = renderResourceMetrics({
      node: {},
      nodeAt: 0,
      pods: [pod('done-n1', [container('c3', 'job', {state: 'exited'})])],
      stats: [stats('c3', 1, 1), stats('stranger', 1, 1)],
    })
    expect(text).not.toContain('container_cpu_usage_seconds_total')
    expect(text).not.toContain('pod_cpu_usage_seconds_total')
    expect(text).not.toContain('node_cpu_usage_seconds_total')
    expect(text).toBe('# HELP resource_scrape_error 1 if there was an error while getting container metrics, 0 otherwise\n# TYPE resource_scrape_error gauge\nresource_scrape_error 0\n')
  })

  it('reports only resource_scrape_error 1 when the runtime gave no stats', () => {
    const text = renderResourceMetrics({node, nodeAt: 0, pods: [pod('web-n1', [container('c1', 'app')])], stats: undefined})
    expect(text).toBe('# HELP resource_scrape_error 1 if there was an error while getting container metrics, 0 otherwise\n# TYPE resource_scrape_error gauge\nresource_scrape_error 1\n')
  })

  it('escapes label values', () => {
    const text = renderResourceMetrics({node: {}, nodeAt: 0, pods: [pod('a"b\\c\nd', [container('c1', 'app')], 'ns')], stats: [stats('c1', 1e9, 1)]})
    expect(text).toContain('container_cpu_usage_seconds_total{container="app",pod="a\\"b\\\\c\\nd",namespace="ns"} 1 ')
  })
})

describe('resourceMetrics (collector)', () => {
  const quiet: Logger = {error: () => {}, warn: () => {}, info: () => {}, debug: () => {}, enabled: () => false} as unknown as Logger
  const proc: Record<string, string> = {
    '/proc/stat': 'cpu  100 20 30 5000 40 5 5 0 7 0\ncpu0 50 10 15 2500 20 2 2 0 3 0\n',
    '/proc/meminfo': 'MemTotal:        4000 kB\nMemFree:         1000 kB\nInactive(file):   500 kB\n',
  }
  const readText = async (p: string): Promise<string> => proc[p] ?? Promise.reject(new Error(`no ${p}`))

  it('joins the runtime stats with the cached pods and the node figures from /proc', async () => {
    const rt = new FakeRuntime({images: ['busybox']})
    const sandbox = await rt.runPodSandbox({metadata: {name: 'web-n1', namespace: 'default', uid: 'u1', attempt: 0}, labels: {}, annotations: {}, logDirectory: '/tmp'} as never)
    const id = await rt.createContainer(sandbox, {metadata: {name: 'app', attempt: 0}, image: {image: 'busybox'}, labels: {}, annotations: {}} as never, {} as never)
    await rt.startContainer(id)
    rt.usage.set(id, {cpuCoreNanoSeconds: 3e9, workingSetBytes: 4096})
    const body = await resourceMetrics({runtime: rt, pods: () => [pod('web-n1', [container(id, 'app')])], readText, clock: realClock, logger: quiet})()
    expect(body).toMatch(/^container_cpu_usage_seconds_total\{container="app",pod="web-n1",namespace="default"\} 3 \d+$/m)
    expect(body).toMatch(/^container_memory_working_set_bytes\{container="app",pod="web-n1",namespace="default"\} 4096 \d+$/m)
    // (100+20+30+5+5+0) ticks of 1/100 s; (4000-1000-500) kB.
    expect(body).toMatch(/^node_cpu_usage_seconds_total 1\.6 \d+$/m)
    expect(body).toMatch(/^node_memory_working_set_bytes 2560000 \d+$/m)
    expect(body).toMatch(/^resource_scrape_error 0$/m)
  })

  it('asks the runtime at most once a second, however many scrapes come', async () => {
    const rt = new FakeRuntime()
    let calls = 0
    const list = rt.listContainerStats.bind(rt)
    rt.listContainerStats = () => (calls++, list())
    const clock = new FakeClock()
    const scrape = resourceMetrics({runtime: rt, pods: () => [], readText, clock, logger: quiet})
    const bodies = await Promise.all(Array.from({length: 50}, () => scrape()))
    expect(calls).toBe(1)
    expect(new Set(bodies).size).toBe(1)
    clock.advance(999)
    await scrape()
    expect(calls).toBe(1)
    clock.advance(1)
    await scrape()
    expect(calls).toBe(2)
  })

  it('says resource_scrape_error 1 when ListContainerStats fails', async () => {
    const rt = new FakeRuntime()
    rt.listContainerStats = () => Promise.reject(new Error('unavailable'))
    const body = await resourceMetrics({runtime: rt, pods: () => [], readText, clock: realClock, logger: quiet})()
    expect(body).toMatch(/^resource_scrape_error 1$/m)
  })
})
