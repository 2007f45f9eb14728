// Garbage to collect (kubelet kuberuntime_gc.go with its defaults): per pod and container name
// keep the newest dead container (MaxPerPodContainer = 1; `logs --previous` reads it) and drop the
// older ones; drop dead sandboxes except the newest of a pod that is still wanted. Pods no source
// wants are the terminating path's job, not GC's. A container left `created` (never started) behind
// a newer instance of its name is garbage too; the newest one is the sync's to start. Pure.
import type {RuntimePod} from '../kuberuntime/model.js'

export interface Garbage {
  containers: string[]
  sandboxes: string[]
}

export const MAX_DEAD_PER_CONTAINER = 1

export function planGarbage(pods: readonly RuntimePod[], wanted: ReadonlySet<string>): Garbage {
  const garbage: Garbage = {containers: [], sandboxes: []}
  for (const pod of pods) {
    if (!wanted.has(pod.uid)) continue
    const deadByName = new Map<string, string[]>()
    const newest = new Set<string>()
    // Containers come newest first.
    for (const c of pod.containers) {
      const isNewest = !newest.has(c.name)
      newest.add(c.name)
      // A created container that a newer one replaced will never start: it is garbage, not kept.
      if (c.state === 'created' && !isNewest) {
        garbage.containers.push(c.id)
        continue
      }
      if (c.state !== 'exited') continue
      const list = deadByName.get(c.name) ?? []
      list.push(c.id)
      deadByName.set(c.name, list)
    }
    for (const ids of deadByName.values()) garbage.containers.push(...ids.slice(MAX_DEAD_PER_CONTAINER))
    const inUse = new Set(pod.containers.filter((c) => !garbage.containers.includes(c.id)).map((c) => c.sandboxId))
    pod.sandboxes.forEach((s, i) => {
      if (i > 0 && s.state === 'notready' && !inUse.has(s.id)) garbage.sandboxes.push(s.id)
    })
  }
  return garbage
}
