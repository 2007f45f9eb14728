import {describe, expect, it} from 'vitest'
import {podMetricsList, renderTop} from '../../../src/cli/render/top.js'
import type {PodUsage} from '../../../src/services/top-usage.js'

const usages: PodUsage[] = [
  {name: 'web-n1', namespace: 'default', timestampMs: Date.UTC(2026, 10, 27, 1, 0, 0, 250), windowMs: 1003, containers: [{name: 'app', nanoCores: 249_500_000, memoryBytes: 12 * 2 ** 20 + 5}, {name: 'sidecar', nanoCores: 1_000_000, memoryBytes: 2 ** 20}]},
  {name: 'db-n1', namespace: 'kube-system', timestampMs: Date.UTC(2026, 10, 27, 1, 0, 1), windowMs: 1000, containers: [{name: 'db', nanoCores: 0, memoryBytes: 300 * 2 ** 20}]},
]

describe('top pods output', () => {
  it("a row per pod in kubectl top's columns: the containers' sum, CPU in millicores and memory in Mi", () => {
    expect(renderTop(usages, 'table', {containers: false, namespaces: false})).toBe(
      ['NAME     CPU(cores)   MEMORY(bytes)', 'web-n1   251m         13Mi', 'db-n1    0m           300Mi', ''].join('\n'),
    )
  })

  it('a row per container with --containers, and NAMESPACE first when asked', () => {
    expect(renderTop(usages, 'table', {containers: true, namespaces: true})).toBe(
      [
        'NAMESPACE     POD      NAME      CPU(cores)   MEMORY(bytes)',
        'default       web-n1   app       250m         12Mi',
        'default       web-n1   sidecar   1m           1Mi',
        'kube-system   db-n1    db        0m           300Mi',
        '',
      ].join('\n'),
    )
  })

  it('-o json is the PodMetricsList metrics-server serves, and only that', () => {
    const text = renderTop(usages, 'json', {containers: true, namespaces: true})
    expect(JSON.parse(text)).toEqual(podMetricsList(usages))
    expect(podMetricsList(usages).items[0]).toEqual({
      kind: 'PodMetrics',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: {name: 'web-n1', namespace: 'default'},
      timestamp: '2026-11-27T01:00:00Z',
      window: '1.003s',
      containers: [
        {name: 'app', usage: {cpu: '249500000n', memory: '12582917'}},
        {name: 'sidecar', usage: {cpu: '1000000n', memory: '1Mi'}},
      ],
    })
  })

  it('escapes control characters from names in the table', () => {
    const text = renderTop([{...usages[1]!, name: 'x\u001b[31m'}], 'table', {containers: false, namespaces: false})
    expect(text).not.toContain('\u001b')
  })
})
