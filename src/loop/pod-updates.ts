// How `watch` takes a change from its sources (the kubelet's HandlePodAdditions, HandlePodUpdates
// and HandlePodRemoves): an added pod, or an edit of a refused one, passes admission first; an
// add or an edit using a field the runtime must support is checked against the runtime's
// features before its next sync (once, not at every sync); a removed pod is killed.
import type {PodUpdate, StaticPod} from '../api/types.js'
import type {Rejection} from '../decide/admission.js'
import {needsRuntimeSupport} from '../decide/runtime-support.js'
import type {NodeInfo} from '../util/node-info.js'
import type {Logger} from '../util/logger.js'
import type {PodWork} from './pod-workers.js'
import type {PodLifecycle} from './pod-lifecycle.js'
import type {PodRecord, WatchedPods} from './watched-pods.js'

export interface UpdateTarget {
  pods: WatchedPods
  lifecycle: PodLifecycle
  /** Hands work to the pod workers. */
  schedule: (work: PodWork) => void
  logger: Logger
  /** The node pods are admitted against; without it every pod is admitted. */
  node?: NodeInfo | undefined
  /** True once every source has delivered a snapshot: before that nothing is deleted. */
  sourcesReady: () => boolean
}

export function applyUpdate(t: UpdateTarget, op: PodUpdate['op'], sp: StaticPod, now: number): void {
  const uid = sp.pod.metadata.uid
  switch (op) {
    case 'ADD':
    case 'UPDATE': {
      const rec = t.pods.upsert(sp, now)
      t.logger.info(op === 'ADD' ? 'Pod added' : 'Pod updated', {pod: sp.pod.metadata.name, source: sp.source.location})
      // A new pod, or a rejected one that was edited, must pass admission first.
      if (((op === 'ADD' && !rec.everSynced) || rec.rejected) && !admit(t, rec)) return
      rec.runtimeCheckDue = t.node !== undefined && needsRuntimeSupport(sp.pod)
      t.schedule({type: 'sync', sp, reason: op === 'ADD' ? 'create' : 'update'})
      return
    }
    case 'REMOVE': {
      const gone = t.pods.remove(uid)
      // A refused pod never ran: nothing will be terminated, so its record and events go now.
      if (gone?.rejected) void t.lifecycle.forget(uid)
      t.logger.info('Pod removed from its source', {pod: sp.pod.metadata.name, source: sp.source.location})
      if (t.sourcesReady()) t.schedule({type: 'kill', uid, sp, reason: 'its manifest is gone'})
      return
    }
    case 'RECONCILE':
      if (t.pods.has(uid)) t.pods.upsert(sp, now)
      return
  }
}

/** Admits the pod against the pods already admitted; a refused one is marked and never synced. */
function admit(t: UpdateTarget, rec: PodRecord): boolean {
  if (!t.node) return true
  const verdict = t.lifecycle.admit(rec.sp, rec, t.pods.admittedBesides(rec), t.node)
  if (!verdict) {
    delete rec.rejected
    return true
  }
  markRejected(rec, verdict, t.logger)
  return false
}

/** A refused pod is marked so that nothing syncs it, and the refusal is logged. */
export function markRejected(rec: PodRecord, verdict: Rejection, logger: Logger): void {
  rec.rejected = verdict
  logger.warn('Pod rejected by admission', {pod: rec.sp.pod.metadata.name, reason: verdict.reason, message: verdict.message})
}
