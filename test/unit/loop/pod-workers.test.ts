// Pod workers: serial per pod, parallel across pods, coalescing to the latest update, and kills
// that a sync can never overwrite.
import {describe, expect, it} from 'vitest'
import {PodWorkers, type PodSyncer, type PodWork} from '../../../src/loop/pod-workers.js'
import {silentLogger} from '../../../src/util/logger.js'
import type {StaticPod} from '../../../src/api/types.js'
import {withLiveFacts} from '../../support/pods.js'

function sp(uid: string, image = 'img:1'): StaticPod {
  return withLiveFacts({
    manifestName: uid,
    source: {kind: 'file', location: 'x.yaml', document: 0},
    pod: {metadata: {name: uid, namespace: 'default', uid}, spec: {containers: [{name: 'c', image}]}},
  })
}

/** A syncer whose calls block until the test releases them. */
function gatedSyncer(): {syncer: PodSyncer; log: string[]; release: () => void} {
  const log: string[] = []
  let gates: (() => void)[] = []
  const wait = (): Promise<void> => new Promise((r) => gates.push(r))
  return {
    log,
    release: () => {
      const g = gates
      gates = []
      g.forEach((f) => f())
    },
    syncer: {
      async sync(p) {
        log.push(`sync ${p.pod.metadata.uid} ${p.pod.spec.containers[0]!.image}`)
        await wait()
      },
      async kill(w: Extract<PodWork, {type: 'kill'}>) {
        log.push(`kill ${w.uid}`)
        await wait()
      },
    },
  }
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r))

describe('PodWorkers', () => {
  it('coalesces updates to a busy pod to the latest one', async () => {
    const g = gatedSyncer()
    const w = new PodWorkers(g.syncer, silentLogger)
    w.update({type: 'sync', sp: sp('a', 'img:1'), reason: 'create'})
    await tick()
    w.update({type: 'sync', sp: sp('a', 'img:2'), reason: 'update'})
    w.update({type: 'sync', sp: sp('a', 'img:3'), reason: 'update'})
    g.release()
    await tick()
    g.release()
    await w.idle()
    expect(g.log).toEqual(['sync a img:1', 'sync a img:3'])
  })

  it('runs different pods in parallel', async () => {
    const g = gatedSyncer()
    const w = new PodWorkers(g.syncer, silentLogger)
    w.update({type: 'sync', sp: sp('a'), reason: 'create'})
    w.update({type: 'sync', sp: sp('b'), reason: 'create'})
    await tick()
    expect(g.log).toEqual(['sync a img:1', 'sync b img:1'])
    g.release()
    await w.idle()
  })

  it('never lets a sync overwrite a pending kill', async () => {
    const g = gatedSyncer()
    const w = new PodWorkers(g.syncer, silentLogger)
    w.update({type: 'sync', sp: sp('a'), reason: 'create'})
    await tick()
    w.update({type: 'kill', uid: 'a', reason: 'removed'})
    w.update({type: 'sync', sp: sp('a', 'img:2'), reason: 'sync'})
    expect(w.isTerminating('a')).toBe(true)
    g.release()
    await tick()
    expect(g.log).toEqual(['sync a img:1', 'kill a'])
    g.release()
    await tick()
    // The sync that arrived during termination starts the pod again once the kill is done.
    g.release()
    await w.idle()
    expect(g.log).toEqual(['sync a img:1', 'kill a', 'sync a img:2'])
  })

  it('keeps working after a sync throws', async () => {
    const log: string[] = []
    const w = new PodWorkers(
      {
        async sync(p) {
          log.push(p.pod.spec.containers[0]!.image!)
          if (log.length === 1) throw new Error('boom')
        },
        async kill() {},
      },
      silentLogger,
    )
    w.update({type: 'sync', sp: sp('a', 'img:1'), reason: 'create'})
    await w.idle()
    w.update({type: 'sync', sp: sp('a', 'img:2'), reason: 'update'})
    await w.idle()
    expect(log).toEqual(['img:1', 'img:2'])
  })

  describe('a kill interrupts the sync in flight', () => {
    /** A syncer whose sync waits until its signal aborts (a pull that never ends), logging what it saw. */
    function abortableSyncer(): {syncer: PodSyncer; log: string[]} {
      const log: string[] = []
      return {
        log,
        syncer: {
          async sync(p, _reason, signal) {
            log.push(`sync ${p.pod.spec.containers[0]!.image}`)
            await new Promise<void>((r) => signal.addEventListener('abort', () => r(), {once: true}))
            log.push(`aborted: ${String((signal.reason as Error).message)}`)
          },
          async kill(w) {
            log.push(`kill ${w.uid}`)
          },
        },
      }
    }

    it('a kill aborts the running sync, then runs', async () => {
      const s = abortableSyncer()
      const w = new PodWorkers(s.syncer, silentLogger)
      w.update({type: 'sync', sp: sp('a'), reason: 'create'})
      await tick()
      w.update({type: 'kill', uid: 'a', reason: 'its manifest is gone'})
      await w.idle()
      expect(s.log).toEqual(['sync img:1', 'aborted: interrupted: its manifest is gone', 'kill a'])
    })

    it('an update that is not a kill waits for the sync in flight', async () => {
      const g = gatedSyncer()
      const signals: AbortSignal[] = []
      const w = new PodWorkers({...g.syncer, sync: (p, r, signal) => (signals.push(signal), g.syncer.sync(p, r, signal))}, silentLogger)
      w.update({type: 'sync', sp: sp('a', 'img:1'), reason: 'create'})
      await tick()
      w.update({type: 'sync', sp: sp('a', 'img:2'), reason: 'update'})
      await tick()
      expect(signals[0]!.aborted).toBe(false)
      g.release()
      await tick()
      g.release()
      await w.idle()
      expect(g.log).toEqual(['sync a img:1', 'sync a img:2'])
    })

    it('a sync that stands for a kill (the active deadline passed) aborts the one in flight', async () => {
      const s = abortableSyncer()
      const w = new PodWorkers(s.syncer, silentLogger)
      w.update({type: 'sync', sp: sp('a', 'img:1'), reason: 'create'})
      await tick()
      w.update({type: 'sync', sp: sp('a', 'img:2'), reason: 'sync', interrupts: 'its active deadline passed'})
      await tick()
      // The deadline's own sync then runs (and would wait too: end it by stopping).
      await w.stop(1000)
      expect(s.log).toEqual(['sync img:1', 'aborted: interrupted: its active deadline passed', 'sync img:2', 'aborted: interrupted: stopping'])
    })

    it('stop interrupts the syncs in flight', async () => {
      const s = abortableSyncer()
      const w = new PodWorkers(s.syncer, silentLogger)
      w.update({type: 'sync', sp: sp('a'), reason: 'create'})
      w.update({type: 'sync', sp: sp('b'), reason: 'create'})
      await tick()
      await w.stop(60_000)
      expect(s.log.filter((l) => l.startsWith('aborted'))).toEqual(['aborted: interrupted: stopping', 'aborted: interrupted: stopping'])
    })
  })

  it('takes no new work after stop', async () => {
    const g = gatedSyncer()
    const w = new PodWorkers(g.syncer, silentLogger)
    w.update({type: 'sync', sp: sp('a'), reason: 'create'})
    await tick()
    const stopping = w.stop(1000)
    g.release()
    await stopping
    w.update({type: 'sync', sp: sp('b'), reason: 'create'})
    await tick()
    expect(g.log).toEqual(['sync a img:1'])
  })
})
