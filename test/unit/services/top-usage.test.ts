import {describe, expect, it} from 'vitest'
import type {ContainerStats} from '../../../src/cri/api.js'
import type {RuntimeContainer, RuntimePod} from '../../../src/kuberuntime/model.js'
import {binaryQuantity, containerUsage, formatCpu, formatMemory, podUsages} from '../../../src/services/top-usage.js'

const T0 = 1_700_000_000_000

function container(id: string, name: string, over: Partial<RuntimeContainer> = {}): RuntimeContainer {
  return {
    id, sandboxId: 's1', name, type: 'regular', state: 'running', restartCount: 0, hash: 'h',
    createdAt: T0, startedAt: T0, finishedAt: 0, exitCode: 0, reason: '', message: '',
    image: 'busybox', imageRef: 'sha256:1', logPath: '', ...over,
  }
}

function pod(name: string, containers: RuntimeContainer[], namespace = 'default'): RuntimePod {
  return {uid: `uid-${name}`, name, namespace, manifestName: name, sandboxes: [], containers}
}

function stats(id: string, cpuNs: number | undefined, bytes: number | undefined, at: number): ContainerStats {
  return {
    id, metadata: {name: id, attempt: 0}, labels: {},
    ...(cpuNs === undefined ? {} : {cpuUsageCoreNanoSeconds: {timestampMs: at, value: cpuNs}}),
    ...(bytes === undefined ? {} : {memoryWorkingSetBytes: {timestampMs: at, value: bytes}}),
  }
}

describe('containerUsage: CPU as a rate between two samples, as metrics-server computes it', () => {
  const cases: {name: string; before: ContainerStats | undefined; after: ContainerStats | undefined; want: {nanoCores: number; memoryBytes: number} | undefined}[] = [
    {name: 'half a core over one second', before: stats('c', 1e9, 1, T0), after: stats('c', 1.5e9, 5 << 20, T0 + 1000), want: {nanoCores: 5e8, memoryBytes: 5 << 20}},
    {name: 'two cores over half a second', before: stats('c', 0, 1, T0), after: stats('c', 1e9, 10, T0 + 500), want: {nanoCores: 2e9, memoryBytes: 10}},
    {name: 'an idle container uses 0', before: stats('c', 7, 1, T0), after: stats('c', 7, 1, T0 + 1000), want: {nanoCores: 0, memoryBytes: 1}},
    {name: 'no first sample: no rate', before: undefined, after: stats('c', 1e9, 1, T0), want: undefined},
    {name: 'no second sample: no rate', before: stats('c', 1e9, 1, T0), after: undefined, want: undefined},
    {name: 'a counter that went back (reset): no rate', before: stats('c', 2e9, 1, T0), after: stats('c', 1e9, 1, T0 + 1000), want: undefined},
    {name: 'the same timestamp twice: no rate', before: stats('c', 1e9, 1, T0), after: stats('c', 2e9, 1, T0), want: undefined},
    {name: 'no memory figure: none', before: stats('c', 1e9, 1, T0), after: stats('c', 2e9, undefined, T0 + 1000), want: undefined},
    {name: 'no CPU figure: none', before: stats('c', undefined, 1, T0), after: stats('c', 2e9, 1, T0 + 1000), want: undefined},
  ]
  for (const c of cases) {
    it(c.name, () => {
      const got = containerUsage(c.before, c.after)
      expect(got === undefined ? undefined : {nanoCores: got.nanoCores, memoryBytes: got.memoryBytes}).toEqual(c.want)
    })
  }
})

describe('podUsages', () => {
  it('gives each pod its containers, sorted by namespace, pod and container name', () => {
    const pods = [pod('web-n1', [container('b', 'sidecar'), container('a', 'app')]), pod('db-n1', [container('d', 'db')], 'kube-system')]
    const got = podUsages({
      pods,
      before: [stats('a', 0, 1, T0), stats('b', 0, 1, T0), stats('d', 0, 1, T0)],
      after: [stats('a', 1e8, 2 << 20, T0 + 1000), stats('b', 2e7, 3 << 20, T0 + 1000), stats('d', 1e9, 1 << 30, T0 + 1000)],
    })
    expect(got).toEqual([
      {name: 'web-n1', namespace: 'default', timestampMs: T0 + 1000, windowMs: 1000, containers: [{name: 'app', nanoCores: 1e8, memoryBytes: 2 << 20}, {name: 'sidecar', nanoCores: 2e7, memoryBytes: 3 << 20}]},
      {name: 'db-n1', namespace: 'kube-system', timestampMs: T0 + 1000, windowMs: 1000, containers: [{name: 'db', nanoCores: 1e9, memoryBytes: 1 << 30}]},
    ])
  })

  it('counts only running containers and leaves out pods with none', () => {
    const pods = [pod('web-n1', [container('a', 'app'), container('old', 'app', {state: 'exited'})]), pod('done-n1', [container('x', 'job', {state: 'exited'})])]
    const got = podUsages({pods, before: [stats('a', 0, 1, T0), stats('old', 0, 1, T0), stats('x', 0, 1, T0)], after: [stats('a', 1e6, 1, T0 + 1000), stats('old', 9e9, 1, T0 + 1000), stats('x', 9e9, 1, T0 + 1000)]})
    expect(got.map((p) => [p.name, p.containers.map((c) => c.name)])).toEqual([['web-n1', ['app']]])
  })

  it('leaves out a pod one of whose running containers has no rate yet (it restarted between the samples), as metrics-server does', () => {
    const pods = [pod('web-n1', [container('a', 'app'), container('new', 'sidecar')])]
    const got = podUsages({pods, before: [stats('a', 0, 1, T0)], after: [stats('a', 1e6, 1, T0 + 1000), stats('new', 1e6, 1, T0 + 1000)]})
    expect(got).toEqual([])
  })
})

describe("kubectl top's cells", () => {
  it('CPU in millicores, rounded up as MilliValue is', () => {
    expect([0, 1, 1e6, 1_000_001, 250e6, 2e9].map(formatCpu)).toEqual(['0m', '1m', '1m', '2m', '250m', '2000m'])
  })
  it('memory in whole MiB, rounded down', () => {
    expect([0, (1 << 20) - 1, 1 << 20, 5.9 * (1 << 20), 1 << 30].map(formatMemory)).toEqual(['0Mi', '0Mi', '1Mi', '5Mi', '1024Mi'])
  })
  it('memory in -o json as a binary quantity', () => {
    expect([0, 1000, 1024, 1536 * 1024, 3 << 20, 1 << 30].map(binaryQuantity)).toEqual(['0', '1000', '1Ki', '1536Ki', '3Mi', '1Gi'])
  })
})
