// The order pods are taken in when some start after others (`kube-node.io/start-after`): each
// after the pods it names, the given order otherwise. `run` takes pods in this order, so a worker
// never waits on a pod no worker has begun; `plan` shows it. Pure; assumes no cycle (validation
// refuses one).
import type {StaticPod} from '../api/types.js'

export function startOrder<T extends {sp: StaticPod}>(items: readonly T[]): T[] {
  const byName = new Map(items.map((t) => [t.sp.manifestName, t]))
  const out: T[] = []
  const placed = new Set<T>()
  const visiting = new Set<T>()
  const place = (t: T): void => {
    if (placed.has(t) || visiting.has(t)) return
    visiting.add(t)
    for (const name of t.sp.startAfter ?? []) {
      const dep = byName.get(name)
      if (dep) place(dep)
    }
    visiting.delete(t)
    placed.add(t)
    out.push(t)
  }
  for (const t of items) place(t)
  return out
}
