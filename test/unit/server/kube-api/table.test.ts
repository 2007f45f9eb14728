import {describe, expect, it} from 'vitest'
import type {ContainerStatus, Pod} from '../../../../src/api/types.js'
import {podCells, podRow, podSummary, eventCells} from '../../../../src/server/kube-api/table.js'

const NOW = Date.parse('2026-01-01T01:00:00Z')
const ago = (s: number): string => new Date(NOW - s * 1000).toISOString()

function pod(statuses: ContainerStatus[], extra: Partial<Pod> = {}, phase = 'Running'): Pod {
  return {
    metadata: {name: 'web-n1', namespace: 'default', creationTimestamp: ago(600)},
    spec: {nodeName: 'n1', containers: statuses.map((s) => ({name: s.name}))},
    status: {phase, podIP: '10.1.0.4', conditions: [{type: 'Ready', status: 'True'}], containerStatuses: statuses},
    ...extra,
  }
}

const running = (name = 'c', ready = true): ContainerStatus => ({name, image: 'i', imageID: '', ready, restartCount: 0, state: {running: {startedAt: ago(60)}}})

describe('podSummary: READY, STATUS and RESTARTS as `kubectl get pods` shows them', () => {
  it.each<[string, Pod, {ready: string; status: string; restarts: string}]>([
    ['running and ready', pod([running()]), {ready: '1/1', status: 'Running', restarts: '0'}],
    ['one of two ready', pod([running('a'), running('b', false)]), {ready: '1/2', status: 'Running', restarts: '0'}],
    [
      'a crash loop names the waiting reason and when it last restarted',
      pod([{name: 'c', image: 'i', imageID: '', ready: false, restartCount: 3, state: {waiting: {reason: 'CrashLoopBackOff'}}, lastState: {terminated: {exitCode: 1, reason: 'Error', finishedAt: ago(90)}}}]),
      {ready: '0/1', status: 'CrashLoopBackOff', restarts: '3 (90s ago)'},
    ],
    ['exited without a reason shows the exit code', pod([{name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: {terminated: {exitCode: 3}}}]), {ready: '0/1', status: 'ExitCode:3', restarts: '0'}],
    ['killed by a signal shows it', pod([{name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: {terminated: {exitCode: 137, signal: 9}}}]), {ready: '0/1', status: 'Signal:9', restarts: '0'}],
    ['finished', pod([{name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: {terminated: {exitCode: 0, reason: 'Completed'}}}], {}, 'Succeeded'), {ready: '0/1', status: 'Completed', restarts: '0'}],
    [
      'a completed container beside a running one is NotReady while the pod is not Ready',
      {...pod([{name: 'a', image: 'i', imageID: '', ready: false, restartCount: 0, state: {terminated: {exitCode: 0, reason: 'Completed'}}}, running('b')]), status: {phase: 'Running', conditions: [{type: 'Ready', status: 'False'}], containerStatuses: [running('b'), {name: 'a', image: 'i', imageID: '', ready: false, restartCount: 0, state: {terminated: {exitCode: 0, reason: 'Completed'}}}]}},
      {ready: '1/2', status: 'NotReady', restarts: '0'},
    ],
    [
      'an init container still running',
      {metadata: {name: 'p'}, spec: {initContainers: [{name: 'init'}], containers: [{name: 'c'}]}, status: {phase: 'Pending', initContainerStatuses: [{name: 'init', image: 'i', imageID: '', ready: false, restartCount: 0, state: {running: {}}}], containerStatuses: [{name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: {waiting: {reason: 'PodInitializing'}}}]}},
      {ready: '0/1', status: 'Init:0/1', restarts: '0'},
    ],
    ['a refused pod shows its reason', {metadata: {name: 'p'}, spec: {containers: [{name: 'c'}]}, status: {phase: 'Failed', reason: 'OutOfpods'}}, {ready: '0/1', status: 'OutOfpods', restarts: '0'}],
    ['a pod being deleted', pod([running()], {metadata: {name: 'p', deletionTimestamp: ago(1)}}), {ready: '1/1', status: 'Terminating', restarts: '0'}],
  ])('%s', (_name, p, want) => {
    expect(podSummary(p, NOW)).toEqual(want)
  })
})

describe('podCells', () => {
  it('fills the wide columns, <none> where there is nothing', () => {
    expect(podCells(pod([running()]), NOW)).toEqual(['web-n1', '1/1', 'Running', '0', '10m', '10.1.0.4', 'n1', '<none>', '<none>'])
    expect(podCells({metadata: {name: 'p'}, spec: {containers: []}}, NOW)).toEqual(['p', '0/0', '', '0', '<unknown>', '<none>', '<none>', '<none>', '<none>'])
  })

  it('counts readiness gates that are True', () => {
    const p = pod([running()])
    p.spec!.readinessGates = [{conditionType: 'example.com/lb'}, {conditionType: 'example.com/dns'}]
    p.status!.conditions!.push({type: 'example.com/lb', status: 'True'})
    expect(podCells(p, NOW)[8]).toBe('1/2')
  })

  it('carries the metadata only, unless the whole object or none is asked for', () => {
    const p = pod([running()])
    expect(podRow(p, NOW, 'Metadata').object).toEqual({kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: p.metadata})
    expect(podRow(p, NOW, 'Object').object).toBe(p)
    expect(podRow(p, NOW, 'None')).not.toHaveProperty('object')
  })
})

describe('eventCells', () => {
  it('shows a repeated event as kubectl does: last seen (xN over first seen)', () => {
    const cells = eventCells(
      {involvedObject: {kind: 'Pod', name: 'web-n1'}, metadata: {name: 'e1'}, type: 'Warning', reason: 'BackOff', message: 'Back-off restarting\n', count: 4, firstTimestamp: ago(600), lastTimestamp: ago(30), source: {component: 'kubelet', host: 'n1'}},
      NOW,
    )
    expect(cells).toEqual(['30s (x4 over 10m)', 'Warning', 'BackOff', 'pod/web-n1', '', 'kubelet, n1', 'Back-off restarting', '10m', '4', 'e1'])
  })
})
