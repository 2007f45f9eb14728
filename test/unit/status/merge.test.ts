// Which status a reader shows: the recorded one while it describes the runtime's containers.
import {describe, expect, it} from 'vitest'
import type {ContainerStatus, PodStatus} from '../../../src/api/types.js'
import type {StatusRecord} from '../../../src/api/status-record.js'
import type {RuntimeContainer, RuntimePod} from '../../../src/kuberuntime/model.js'
import {mergeStatus, recordDescribesRuntime} from '../../../src/status/merge.js'
import {withTransitionTimes} from '../../../src/status/transitions.js'
import {T0, basePod, baseRuntime, exited, runtimeContainer} from '../../support/pods.js'

const sp = basePod()

function record(statuses: ContainerStatus[], manifestHash = 'h1'): StatusRecord {
  return {
    apiVersion: 'kube-node.io/v1',
    kind: 'PodStatusRecord',
    uid: sp.pod.metadata.uid,
    name: sp.pod.metadata.name,
    namespace: 'default',
    writer: {command: 'watch', pid: 1, startedAt: T0, processStart: '1'},
    at: T0,
    manifestHash,
    status: {phase: 'Running', containerStatuses: statuses},
  }
}

const running = (name: string, id = `id-${name}`): ContainerStatus => ({name, containerID: `containerd://${id}`, state: {running: {}}, ready: true, restartCount: 0, image: '', imageID: ''})
const backingOff = (name: string, id = `id-${name}`): ContainerStatus => ({name, containerID: `containerd://${id}`, state: {waiting: {reason: 'CrashLoopBackOff'}}, ready: false, restartCount: 1, image: '', imageID: ''})
const neverCreated = (name: string): ContainerStatus => ({name, state: {waiting: {reason: 'ErrImagePull'}}, ready: false, restartCount: 0, image: '', imageID: ''})

function runtimeWith(changes: Record<string, Partial<RuntimeContainer> | 'gone' | 'newer'>): RuntimePod {
  const rt = baseRuntime(sp)
  for (const [name, change] of Object.entries(changes)) {
    if (change === 'gone') rt.containers = rt.containers.filter((c) => c.name !== name)
    else if (change === 'newer') rt.containers.push(runtimeContainer(sp, name, {id: `id-${name}-2`, createdAt: T0 + 9000}))
    else rt.containers = rt.containers.map((c) => (c.name === name ? {...c, ...change} : c))
  }
  return rt
}

const ALL_RUNNING = [running('foo1'), running('foo2'), running('foo3')]

describe('recordDescribesRuntime', () => {
  it.each<[string, StatusRecord, RuntimePod | undefined, boolean]>([
    ['the same instances, running', record(ALL_RUNNING), runtimeWith({}), true],
    ['a container exited since (the manager did not see it)', record(ALL_RUNNING), runtimeWith({foo2: exited(1)}), false],
    ['a newer instance was started since', record(ALL_RUNNING), runtimeWith({foo1: 'newer'}), false],
    ['a recorded container is gone from the runtime', record(ALL_RUNNING), runtimeWith({foo3: 'gone'}), false],
    ['back-off on an exited instance that is still the newest', record([running('foo1'), backingOff('foo2'), running('foo3')]), runtimeWith({foo2: exited(1)}), true],
    ['never created, and the runtime has none', record([running('foo1'), running('foo2'), neverCreated('foo3')]), runtimeWith({foo3: 'gone'}), true],
    ['never created, but the runtime has one now', record([running('foo1'), running('foo2'), neverCreated('foo3')]), runtimeWith({}), false],
    ['a pod that never reached the runtime', record([neverCreated('foo1')]), undefined, true],
    ['a runtime container the record does not know', record([running('foo1'), running('foo2')]), runtimeWith({}), false],
    ['another manifest version', record(ALL_RUNNING, 'h0'), runtimeWith({}), false],
  ])('%s → %s', (_name, rec, runtime, expected) => {
    expect(recordDescribesRuntime(rec, runtime, 'h1')).toBe(expected)
  })

  it('an edit not applied yet: the record shows the new definition waiting over the old instance, which still runs; the runtime view vouches for it', () => {
    const pulling: ContainerStatus = {...running('foo2'), state: {waiting: {reason: 'ImagePullBackOff'}}, ready: false}
    const rec = record([running('foo1'), pulling, running('foo3')])
    const viewOf = (foo2: ContainerStatus): PodStatus => ({phase: 'Running', containerStatuses: [running('foo1'), foo2, running('foo3')]})
    const waitingView = viewOf({...running('foo2'), state: {waiting: {reason: 'ContainerCreating'}}, ready: false})
    expect(mergeStatus({record: rec, runtime: runtimeWith({}), runtimeStatus: waitingView, manifestHash: 'h1'}).source).toBe('recorded')
    // Without that view (or with a view that has it running), a recorded waiting over a running instance is stale.
    expect(recordDescribesRuntime(rec, runtimeWith({}), 'h1')).toBe(false)
    expect(mergeStatus({record: rec, runtime: runtimeWith({}), runtimeStatus: viewOf(running('foo2')), manifestHash: 'h1'}).source).toBe('runtime')
  })

  it('mergeStatus shows the record when it holds, else the runtime view, and says which', () => {
    const runtimeStatus: PodStatus = {phase: 'Running'}
    expect(mergeStatus({record: record(ALL_RUNNING), runtime: runtimeWith({}), runtimeStatus, manifestHash: 'h1'}).source).toBe('recorded')
    expect(mergeStatus({record: record(ALL_RUNNING), runtime: runtimeWith({foo2: exited(1)}), runtimeStatus, manifestHash: 'h1'})).toEqual({status: runtimeStatus, source: 'runtime'})
    expect(mergeStatus({record: undefined, runtime: runtimeWith({}), runtimeStatus, manifestHash: 'h1'}).source).toBe('runtime')
  })
})

describe('withTransitionTimes', () => {
  const at = (s: PodStatus, type: string): string | undefined => s.conditions?.find((c) => c.type === type)?.lastTransitionTime
  it('keeps the time of a condition whose status holds, and stamps one that changed', () => {
    const first = withTransitionTimes(undefined, {conditions: [{type: 'Ready', status: 'False'}, {type: 'PodScheduled', status: 'True'}]}, T0)
    expect(at(first, 'Ready')).toBe('2025-01-01T00:00:00Z')
    const second = withTransitionTimes(first, {conditions: [{type: 'Ready', status: 'True'}, {type: 'PodScheduled', status: 'True'}]}, T0 + 5000)
    expect(at(second, 'Ready')).toBe('2025-01-01T00:00:05Z')
    expect(at(second, 'PodScheduled')).toBe('2025-01-01T00:00:00Z')
  })
})
