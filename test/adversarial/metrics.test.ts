// /metrics/probes and /metrics/resource under hostile values: label values from names and
// namespaces the runtime reports (any bytes, for a pod another tool labelled) stay inside their
// quotes, and a runtime that answers garbage stats yields `resource_scrape_error 1` and a
// parseable exposition, never a 500 or a crash.
import {describe, expect, it} from 'vitest'
import type {ContainerStats} from '../../src/cri/api.js'
import type {RuntimeContainer, RuntimePod} from '../../src/kuberuntime/model.js'
import {escapeLabelValue, formatFamilies} from '../../src/metrics/exposition.js'
import {createProbeMetrics} from '../../src/metrics/probes.js'
import {resourceMetrics} from '../../src/metrics/resource-collector.js'
import {realClock} from '../../src/util/clock.js'
import {silentLogger} from '../../src/util/logger.js'

function container(id: string, name: string): RuntimeContainer {
  return {
    id, sandboxId: 's1', name, type: 'regular', state: 'running', restartCount: 0, hash: 'h',
    createdAt: 1_700_000_000_000, startedAt: 1_700_000_001_500, finishedAt: 0, exitCode: 0, reason: '', message: '',
    image: 'busybox', imageRef: 'sha256:1', logPath: '',
  }
}

const pod = (name: string, namespace: string, containers: RuntimeContainer[]): RuntimePod => ({uid: `uid-${name}`, name, namespace, manifestName: name, sandboxes: [], containers})

const PROC: Record<string, string> = {'/proc/stat': 'cpu  1 2 3 4 5 6 7 0 0 0\n', '/proc/meminfo': 'MemTotal: 4000 kB\nMemFree: 1000 kB\n'}

function scrape(stats: unknown, pods: RuntimePod[] = [pod('web', 'default', [container('c1', 'app')])]): Promise<string> {
  return resourceMetrics({
    runtime: {listContainerStats: async () => stats as ContainerStats[]},
    pods: () => pods,
    readText: async (p) => PROC[p] ?? '',
    clock: realClock,
    logger: silentLogger,
  })()
}

/** Every line of a text exposition is a comment or `name{labels} value [timestamp]`. */
function expectParseable(text: string): void {
  const sample = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*",?)*\})? (NaN|[+-]Inf|-?[0-9.e+-]+)( -?\d+)?$/
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue
    expect(line, line).toMatch(sample)
  }
}

describe('label values', () => {
  it.each([
    ['quotes and braces', 'a"} evil_metric 1 #'],
    ['a newline starting a new sample', 'x\nkube_node_pwned 1'],
    ['backslashes', 'a\\"b\\'],
    ['a carriage return and NUL', 'a\r\u0000b'],
  ])('%s stay inside their quotes', async (_name, hostile) => {
    const text = await scrape([{id: 'c1', metadata: {name: 'app', attempt: 0}, labels: {}, cpuUsageCoreNanoSeconds: {timestampMs: 1, value: 1}}], [pod(hostile, hostile, [container('c1', hostile)])])
    expectParseable(text)
    expect(text).not.toMatch(/^kube_node_pwned/m)
    expect(text).not.toMatch(/^ ?evil_metric/m)
    expect(text).toContain(`pod="${escapeLabelValue(hostile)}"`)
  })
})

describe('/metrics/probes label values', () => {
  it('names, namespaces and uids with quotes, backslashes and newlines stay inside their quotes', async () => {
    const m = createProbeMetrics()
    const hostile = 'a"} kube_node_pwned 1\nkube_node_pwned{x="y"} 1 \\'
    m.observe({probeType: 'readiness', container: hostile, pod: hostile, namespace: hostile, podUid: hostile}, 'successful', 0.01)
    m.observe({probeType: 'liveness', container: 'c', pod: 'p', namespace: 'n', podUid: 'u'}, 'failed', Number.NaN)
    const text = await m.text()
    expectParseable(text)
    expect(text).not.toMatch(/^kube_node_pwned/m)
    expect(text).toContain(`pod="${escapeLabelValue(hostile)}"`)
  })
})

describe('garbage stats from the runtime', () => {
  it.each([
    ['null', null],
    ['a string', 'garbage'],
    ['an object', {items: []}],
    ['entries that are null', [null, null]],
    ['an entry without fields', [{}]],
  ])('%s → resource_scrape_error, no crash', async (_name, stats) => {
    const text = await scrape(stats)
    expectParseable(text)
    expect(text).toMatch(/^resource_scrape_error [01]$/m)
  })

  it('a list that is no list is a scrape error', async () => {
    expect(await scrape(null)).toMatch(/^resource_scrape_error 1$/m)
    expect(await scrape('garbage')).toMatch(/^resource_scrape_error 1$/m)
  })

  it('NaN, infinite, negative and huge figures and timestamps keep the exposition parseable', async () => {
    const text = await scrape([
      {id: 'c1', metadata: {name: 'app', attempt: 0}, labels: {}, cpuUsageCoreNanoSeconds: {timestampMs: NaN, value: NaN}, memoryWorkingSetBytes: {timestampMs: Infinity, value: -1}},
    ])
    expectParseable(text)
    expect(text).toMatch(/^resource_scrape_error 0$/m)
    const huge = await scrape([{id: 'c1', metadata: {name: 'app', attempt: 0}, labels: {}, cpuUsageCoreNanoSeconds: {timestampMs: 1e300, value: 1e308}}])
    expectParseable(huge)
  })

  it('a timestamp that is no finite number is left out of the sample', () => {
    const text = formatFamilies([{name: 'm', help: 'h', type: 'gauge', samples: [{value: 1, timestampMs: NaN}, {value: 2, timestampMs: -Infinity}]}])
    expect(text).toBe('# HELP m h\n# TYPE m gauge\nm 1\nm 2\n')
  })

  it('a runtime that rejects is a scrape error', async () => {
    const text = await resourceMetrics({
      runtime: {listContainerStats: () => Promise.reject(new Error('garbage on the wire'))},
      pods: () => [],
      readText: async () => '',
      clock: realClock,
      logger: silentLogger,
    })()
    expect(text).toMatch(/^resource_scrape_error 1$/m)
  })
})
