import {describe, expect, it} from 'vitest'
import type {PodStatus} from '../../../src/api/types.js'
import {awaitedFromStatus, startGate, type AwaitedPod} from '../../../src/decide/start-gate.js'

const states = (m: Record<string, AwaitedPod>) => (name: string): AwaitedPod => m[name] ?? {state: 'unknown'}

describe('startGate: may a pod with start-after be created now', () => {
  it.each<{name: string; startAfter: string[]; hasSandbox?: boolean; awaited: Record<string, AwaitedPod>; open: boolean; final?: boolean; waitsFor?: string[]; reason: RegExp}>([
    {name: 'no start-after → open', startAfter: [], awaited: {}, open: true, reason: /no start-after/},
    {name: 'every awaited pod Ready → open', startAfter: ['etcd', 'api'], awaited: {etcd: {state: 'ready'}, api: {state: 'ready'}}, open: true, reason: /"etcd", "api" are Ready/},
    {
      name: 'an awaited pod not Ready → closed, naming it and where it is',
      startAfter: ['etcd'],
      awaited: {etcd: {state: 'pending', detail: 'pod is Running, not Ready: containers with unready status: [etcd]'}},
      open: false,
      final: false,
      waitsFor: ['etcd'],
      reason: /^waits for pod "etcd" to be Ready \(start-after\); pod is Running, not Ready/,
    },
    {
      name: 'two not Ready → both named, the first explained',
      startAfter: ['etcd', 'api'],
      awaited: {etcd: {state: 'pending', detail: 'not synced yet'}, api: {state: 'pending', detail: 'x'}},
      open: false,
      final: false,
      waitsFor: ['etcd', 'api'],
      reason: /waits for pods "etcd", "api" to be Ready \(start-after\); "etcd": not synced yet/,
    },
    {name: 'one Ready, one not → only the missing one is waited for', startAfter: ['etcd', 'api'], awaited: {etcd: {state: 'ready'}, api: {state: 'pending', detail: 'pod is Pending'}}, open: false, final: false, waitsFor: ['api'], reason: /pod "api"/},
    {name: 'an awaited pod that no source defines → closed, saying so', startAfter: ['etcd'], awaited: {}, open: false, final: false, waitsFor: ['etcd'], reason: /no source defines it/},
    {
      name: 'an awaited pod that ended without being Ready → closed for good',
      startAfter: ['etcd'],
      awaited: {etcd: {state: 'ended', detail: 'failed: container "etcd" exited with code 1'}},
      open: false,
      final: true,
      waitsFor: ['etcd'],
      reason: /^not started: it starts after pod "etcd", which will not become Ready \(failed: container "etcd" exited with code 1\)/,
    },
    {name: 'the pod has a sandbox (a restart) → never held back', startAfter: ['etcd'], hasSandbox: true, awaited: {etcd: {state: 'ended', detail: 'failed'}}, open: true, reason: /restarts are never held back/},
  ])('$name', ({startAfter, hasSandbox, awaited, open, final, waitsFor, reason}) => {
    const v = startGate({startAfter, hasSandbox: hasSandbox ?? false, awaited: states(awaited)})
    expect(v.open).toBe(open)
    expect(v.reason).toMatch(reason)
    if (!v.open) {
      expect(v.final).toBe(final)
      expect(v.waitsFor).toEqual(waitsFor)
    }
  })
})

describe('awaitedFromStatus', () => {
  const ready = (s: 'True' | 'False', phase = 'Running'): PodStatus => ({phase, conditions: [{type: 'Ready', status: s, ...(s === 'False' ? {reason: 'ContainersNotReady', message: 'containers with unready status: [db]'} : {})}]})
  it.each<{name: string; status: PodStatus | undefined; want: AwaitedPod}>([
    {name: 'never synced → pending', status: undefined, want: {state: 'pending', detail: 'not synced yet'}},
    {name: 'Ready condition True → ready', status: ready('True'), want: {state: 'ready'}},
    {name: 'Running, not Ready → pending with the condition message', status: ready('False'), want: {state: 'pending', detail: 'pod is Running, not Ready: containers with unready status: [db]'}},
    {name: 'Failed → ended', status: ready('False', 'Failed'), want: {state: 'ended', detail: 'pod is Failed'}},
    {name: 'Succeeded without Ready → ended', status: ready('False', 'Succeeded'), want: {state: 'ended', detail: 'pod is Succeeded'}},
  ])('$name', ({status, want}) => expect(awaitedFromStatus(status)).toEqual(want))
})
