// When each pod's current instance started: the kubelet stamps status.startTime at a pod's first
// sync, and every edit of a static pod is a new pod there, so an edit starts a new instance with
// a new startTime and a new activeDeadlineSeconds window. kube-node keeps one pod identity across
// edits, so the instance is the pod's config hash: the first sync of a new hash stamps the time.
// A process that takes over a pod (a `watch` restarted, a `run` beside an earlier one) restores
// the start its predecessor recorded for the same hash, so the window does not start again.
import type {StaticPod} from '../api/types.js'
import {podConfigHash} from '../kuberuntime/hash.js'

interface Instance {
  hash: string
  start: number
}

export class InstanceStarts {
  private readonly instances = new Map<string, Instance>()

  /** The start of the pod's current instance; the first call for a new hash stamps `now`. */
  startOf(sp: StaticPod, now: number): number {
    const uid = sp.pod.metadata.uid
    const hash = podConfigHash(sp.pod)
    const known = this.instances.get(uid)
    if (known?.hash === hash) return known.start
    this.instances.set(uid, {hash, start: now})
    return now
  }

  /** Takes over the start another process recorded for the instance of that hash. */
  restore(uid: string, hash: string, start: number): void {
    if (!Number.isFinite(start) || start <= 0 || this.instances.has(uid)) return
    this.instances.set(uid, {hash, start})
  }

  /** The pod is gone: its instance is forgotten. */
  forget(uid: string): void {
    this.instances.delete(uid)
  }

  get size(): number {
    return this.instances.size
  }
}
