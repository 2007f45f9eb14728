// Garbage collection decisions: one dead container per name is kept, older ones and unused dead
// sandboxes go, and pods nobody wants are left to the terminating path.
import {describe, expect, it} from 'vitest'
import {planGarbage} from '../../../src/decide/gc.js'
import type {RuntimeContainer, RuntimePod, RuntimeSandbox} from '../../../src/kuberuntime/model.js'

function sandbox(id: string, state: 'ready' | 'notready'): RuntimeSandbox {
  return {id, state, attempt: 0, createdAt: 0, ip: '', labels: {}, annotations: {}}
}
function container(id: string, name: string, state: RuntimeContainer['state'], sandboxId = 's1'): RuntimeContainer {
  return {id, sandboxId, name, type: 'regular', state, restartCount: 0, hash: 'h', createdAt: 0, startedAt: 0, finishedAt: 0, exitCode: 0, reason: '', message: '', image: 'i', imageRef: '', logPath: ''}
}
function pod(uid: string, sandboxes: RuntimeSandbox[], containers: RuntimeContainer[]): RuntimePod {
  return {uid, name: uid, namespace: 'default', manifestName: uid, sandboxes, containers}
}

describe('planGarbage', () => {
  it.each([
    ['keeps the newest dead container per name', [container('c3', 'web', 'running'), container('c2', 'web', 'exited'), container('c1', 'web', 'exited')], ['c1']],
    ['keeps one dead container of each name', [container('a2', 'a', 'exited'), container('b2', 'b', 'exited'), container('a1', 'a', 'exited')], ['a1']],
    ['never collects running containers, nor the newest created one (the sync starts it)', [container('c2', 'web', 'created'), container('c1', 'web', 'exited')], []],
    ['collects a created container left behind a newer instance, which never starts', [container('c2', 'web', 'running'), container('c1', 'web', 'created')], ['c1']],
  ])('%s', (_name, containers, expected) => {
    expect(planGarbage([pod('p', [sandbox('s1', 'ready')], containers)], new Set(['p'])).containers).toEqual(expected)
  })

  it('removes dead sandboxes that are not the newest and hold no kept container', () => {
    const p = pod('p', [sandbox('s3', 'ready'), sandbox('s2', 'notready'), sandbox('s1', 'notready')], [
      container('c3', 'web', 'running', 's3'),
      container('c2', 'web', 'exited', 's2'),
      container('c1', 'web', 'exited', 's1'),
    ])
    expect(planGarbage([p], new Set(['p']))).toEqual({containers: ['c1'], sandboxes: ['s1']})
  })

  it('leaves pods that no source wants to the terminating path', () => {
    const p = pod('gone', [sandbox('s1', 'notready')], [container('c2', 'web', 'exited'), container('c1', 'web', 'exited')])
    expect(planGarbage([p], new Set())).toEqual({containers: [], sandboxes: []})
  })
})
