// What the pod workers tell about a pod started again under its UID after a kill
// (kubelet_restarted_pods_total), and which pods they are killing (kubelet_working_pods).
import {describe, expect, it} from 'vitest'
import {PodWorkers} from '../../../src/loop/pod-workers.js'
import {silentLogger} from '../../../src/util/logger.js'
import type {StaticPod} from '../../../src/api/types.js'
import {withLiveFacts} from '../../support/pods.js'

function sp(uid: string): StaticPod {
  return withLiveFacts({manifestName: uid, source: {kind: 'file', location: 'x.yaml', document: 0}, pod: {metadata: {name: uid, namespace: 'default', uid}, spec: {containers: [{name: 'c', image: 'img:1'}]}}})
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r))

describe('PodWorkers restarts and terminating pods', () => {
  it('reports a sync that waited for the kill of the same UID as a restart, once it starts', async () => {
    const kills: (() => void)[] = []
    const restarted: string[] = []
    const w = new PodWorkers(
      {
        sync: async () => {},
        kill: () => new Promise<void>((r) => void kills.push(r)),
        restarted: (p) => void restarted.push(p.pod.metadata.uid),
      },
      silentLogger,
    )
    w.update({type: 'kill', uid: 'a', sp: sp('a'), reason: 'removed'})
    w.update({type: 'kill', uid: 'b', reason: 'runtime only'})
    await tick()
    expect(w.terminating()).toEqual([{uid: 'a', hadSpec: true}, {uid: 'b', hadSpec: false}])
    w.update({type: 'sync', sp: sp('a'), reason: 'create'})
    expect(restarted).toEqual([])
    kills.forEach((release) => release())
    await w.idle()
    expect(restarted).toEqual(['a'])
    expect(w.terminating()).toEqual([])
  })
})
