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
  // Depth first with an explicit stack: a chain of many thousands of pods must not overflow the
  // call stack. Each frame is a pod and the index of the next name it waits for.
  const place = (root: T): void => {
    if (placed.has(root) || visiting.has(root)) return
    const stack: Array<{t: T; next: number}> = [{t: root, next: 0}]
    visiting.add(root)
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!
      const names = frame.t.sp.startAfter ?? []
      if (frame.next < names.length) {
        const dep = byName.get(names[frame.next++]!)
        if (dep && !placed.has(dep) && !visiting.has(dep)) {
          visiting.add(dep)
          stack.push({t: dep, next: 0})
        }
        continue
      }
      stack.pop()
      visiting.delete(frame.t)
      placed.add(frame.t)
      out.push(frame.t)
    }
  }
  for (const t of items) place(t)
  return out
}
