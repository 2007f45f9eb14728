import {describe, expect, it} from 'vitest'
import {diffRecords, generateEvents, recordsOf, sandboxPlegState, type PlegState} from '../../../src/pleg/events.js'
import type {RuntimePod} from '../../../src/kuberuntime/model.js'

type S = PlegState | undefined

describe('generateEvents', () => {
  // Every pair the kubelet's generic PLEG distinguishes; `created` counts as unknown.
  it.each<[string, S, S, string[]]>([
    ['absent → running', undefined, 'running', ['ContainerStarted']],
    ['absent → exited', undefined, 'exited', ['ContainerDied']],
    ['absent → unknown', undefined, 'unknown', ['ContainerChanged']],
    ['absent → created', undefined, 'created', ['ContainerChanged']],
    ['created → running', 'created', 'running', ['ContainerStarted']],
    ['unknown → running', 'unknown', 'running', ['ContainerStarted']],
    ['exited → running (restarted in place)', 'exited', 'running', ['ContainerStarted']],
    ['running → exited', 'running', 'exited', ['ContainerDied']],
    ['created → exited', 'created', 'exited', ['ContainerDied']],
    ['unknown → exited', 'unknown', 'exited', ['ContainerDied']],
    ['running → unknown', 'running', 'unknown', ['ContainerChanged']],
    ['running → created', 'running', 'created', ['ContainerChanged']],
    ['exited → unknown', 'exited', 'unknown', ['ContainerChanged']],
    ['exited → absent', 'exited', undefined, ['ContainerRemoved']],
    ['running → absent', 'running', undefined, ['ContainerDied', 'ContainerRemoved']],
    ['unknown → absent', 'unknown', undefined, ['ContainerDied', 'ContainerRemoved']],
    ['created → absent', 'created', undefined, ['ContainerDied', 'ContainerRemoved']],
    ['running → running', 'running', 'running', []],
    ['exited → exited', 'exited', 'exited', []],
    ['created → unknown (both unknown)', 'created', 'unknown', []],
    ['unknown → created (both unknown)', 'unknown', 'created', []],
    ['absent → absent', undefined, undefined, []],
  ])('%s', (_name, before, after, types) => {
    const events = generateEvents('uid-1', 'c1', before, after)
    expect(events.map((e) => e.type)).toEqual(types)
    for (const e of events) expect(e).toMatchObject({uid: 'uid-1', containerId: 'c1'})
  })

  it('treats a ready sandbox as running and a not-ready one as exited', () => {
    expect(sandboxPlegState('ready')).toBe('running')
    expect(sandboxPlegState('notready')).toBe('exited')
  })
})

function pod(uid: string, sandbox: [string, 'ready' | 'notready'], containers: [string, PlegState][]): RuntimePod {
  return {
    uid,
    name: `p-${uid}`,
    namespace: 'default',
    manifestName: `p-${uid}`,
    sandboxes: [{id: sandbox[0], state: sandbox[1], attempt: 0, createdAt: 1, ip: '', labels: {}, annotations: {}}],
    containers: containers.map(([id, state]) => ({
      id,
      sandboxId: sandbox[0],
      name: id,
      type: 'regular' as const,
      state,
      restartCount: 0,
      hash: '',
      createdAt: 1,
      startedAt: 0,
      finishedAt: 0,
      exitCode: 0,
      reason: '',
      message: '',
      image: 'busybox',
      imageRef: '',
      logPath: '',
    })),
  }
}

describe('diffRecords', () => {
  it('groups the events of two relists per pod, sandboxes included', () => {
    const before = recordsOf([pod('a', ['sa', 'ready'], [['a1', 'running']]), pod('b', ['sb', 'ready'], [['b1', 'running']])])
    const after = recordsOf([pod('a', ['sa', 'notready'], [['a1', 'exited']]), pod('c', ['sc', 'ready'], [['c1', 'created']])])
    expect(diffRecords(before, after).map((e) => `${e.uid}/${e.containerId}/${e.type}`)).toEqual([
      'a/sa/ContainerDied',
      'a/a1/ContainerDied',
      'c/sc/ContainerStarted',
      'c/c1/ContainerChanged',
      'b/sb/ContainerDied',
      'b/sb/ContainerRemoved',
      'b/b1/ContainerDied',
      'b/b1/ContainerRemoved',
    ])
  })

  it('keeps a removed container next to the other events of its pod', () => {
    const before = recordsOf([pod('a', ['sa', 'ready'], [['old', 'exited'], ['new', 'created']])])
    const after = recordsOf([pod('a', ['sa', 'ready'], [['new', 'running']])])
    expect(diffRecords(before, after).map((e) => `${e.containerId}/${e.type}`)).toEqual(['new/ContainerStarted', 'old/ContainerRemoved'])
  })

  it('has nothing to say when nothing changed', () => {
    const snap = recordsOf([pod('a', ['sa', 'ready'], [['a1', 'running']])])
    expect(diffRecords(snap, recordsOf([pod('a', ['sa', 'ready'], [['a1', 'running']])]))).toEqual([])
  })
})
