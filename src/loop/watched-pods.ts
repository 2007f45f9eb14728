// The pods `watch` is asked to run (the kubelet's pod manager): per desired pod, its lifecycle
// state, why it is refused if it is, and when it is next due for a sync. Other pods' questions
// are answered here: which pods are admitted, how a pod awaited by start-after is doing.
import type {PodStatus, StaticPod} from '../api/types.js'
import type {Rejection} from '../decide/admission.js'
import {awaitedFromStatus, type AwaitedPod} from '../decide/start-gate.js'
import {newPodState, type PodState} from './pod-lifecycle.js'

export interface PodRecord extends PodState {
  sp: StaticPod
  nextSyncAt: number
  firstSeenAt: number
  startReported: boolean
  everSynced: boolean
  /** Set when admission refused the pod: it is never started (until an edit is admitted). */
  rejected?: Rejection | undefined
  /** An add or an update is not yet checked against the runtime's features (pods using none need no check). */
  runtimeCheckDue: boolean
  /** When a sync of this pod last changed the runtime (ms); cached views older than it are stale. */
  lastChangeAt: number
  /** The active deadline whose passing already interrupted a sync (once per deadline). */
  deadlineInterrupted?: number | undefined
  /** Why the pod is not created yet (start-after), while it waits: logged when it changes. */
  heldBy?: string | undefined
}

function finished(status: PodStatus | undefined): boolean {
  return status?.phase === 'Succeeded' || status?.phase === 'Failed'
}

export class WatchedPods {
  private readonly pods = new Map<string, PodRecord>()

  get(uid: string): PodRecord | undefined {
    return this.pods.get(uid)
  }

  has(uid: string): boolean {
    return this.pods.has(uid)
  }

  uids(): Set<string> {
    return new Set(this.pods.keys())
  }

  all(): PodRecord[] {
    return [...this.pods.values()]
  }

  /** The pod's record, new or updated to `sp`. A new pod reads the runtime itself first: the cache may predate a recent kill of the same UID. */
  upsert(sp: StaticPod, now: number): PodRecord {
    const uid = sp.pod.metadata.uid
    const known = this.pods.get(uid)
    if (known) {
      known.sp = sp
      return known
    }
    const rec: PodRecord = {...newPodState(), sp, nextSyncAt: now, firstSeenAt: now, startReported: false, everSynced: false, runtimeCheckDue: false, lastChangeAt: now}
    this.pods.set(uid, rec)
    return rec
  }

  remove(uid: string): PodRecord | undefined {
    const gone = this.pods.get(uid)
    this.pods.delete(uid)
    return gone
  }

  /** Still the record of a wanted, admitted pod (not removed or refused since it was read). */
  isCurrent(rec: PodRecord): boolean {
    return this.pods.get(rec.sp.pod.metadata.uid) === rec && !rec.rejected
  }

  /** The pods admitted besides `rec`, which it is admitted against. */
  admittedBesides(rec: PodRecord): StaticPod[] {
    return this.all()
      .filter((r) => r !== rec && !r.rejected)
      .map((r) => r.sp)
  }

  /** Admitted pods that have run and have not finished (the eviction manager's active pods). */
  active(): PodRecord[] {
    return this.all().filter((r) => !r.rejected && r.everSynced && !finished(r.status))
  }

  /** The admitted pods that start after the pod of that manifest name. */
  startingAfter(name: string): PodRecord[] {
    return this.all().filter((r) => !r.rejected && (r.sp.startAfter ?? []).includes(name))
  }

  /** In watch nothing is final: a failed or missing pod may be fixed by an edit, so it stays pending. */
  awaited(name: string): AwaitedPod {
    const rec = this.all().find((r) => r.sp.manifestName === name)
    if (!rec) return {state: 'unknown'}
    if (rec.rejected) return {state: 'pending', detail: `rejected: ${rec.rejected.reason}`}
    const seen = awaitedFromStatus(rec.status)
    return seen.state === 'ended' ? {state: 'pending', detail: seen.detail} : seen
  }
}
