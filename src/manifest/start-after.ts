// The `kube-node.io/start-after` annotation (CLI.md): a pod is created only once the pods it
// names (manifest names, from the same sources) are Ready. Kubernetes ignores the annotation, so
// the manifests stay portable. Parsing and the checks across pods (unknown name, self-reference,
// cycle) are pure; the gate itself is src/decide/start-gate.ts.
import type {FieldIssue} from '../util/errors.js'
import {joinPath, keySegment} from '../util/field-path.js'
import {dnsSubdomainError} from './names.js'

export const START_AFTER_ANNOTATION = 'kube-node.io/start-after'

/** The issue's field: `metadata.annotations["kube-node.io/start-after"]`. */
export const START_AFTER_FIELD = joinPath('metadata.annotations', keySegment(START_AFTER_ANNOTATION))

/** The names in the annotation's value (`"etcd, kube-apiserver"`), in order, without repeats. */
export function parseStartAfter(value: string | undefined): string[] {
  if (value === undefined) return []
  const names = value.split(',').map((s) => s.trim()).filter((s) => s !== '')
  return [...new Set(names)]
}

/** Syntax problems of the value (one document; names are checked against the others later). */
export function startAfterSyntaxError(value: string): string | undefined {
  const names = value.split(',').map((s) => s.trim())
  if (names.every((n) => n === '')) return 'must name at least one pod (a comma-separated list of manifest names)'
  for (const n of names) {
    if (n === '') continue
    const err = dnsSubdomainError(n)
    // The name is shown cut short: a value of megabytes must not become a sentence of megabytes.
    if (err) return `names pod ${JSON.stringify(n.length > 64 ? `${n.slice(0, 64)}…` : n)}, which is not a valid pod name: ${err}`
  }
  return undefined
}

/** What the cross-pod check needs of each pod. */
export interface StartAfterPod {
  manifestName: string
  annotations?: Record<string, string> | undefined
  source: {location: string; document: number}
}

export function startAfterOf(p: Pick<StartAfterPod, 'annotations'>): string[] {
  return parseStartAfter(p.annotations?.[START_AFTER_ANNOTATION])
}

function issue(p: StartAfterPod, message: string): FieldIssue {
  return {location: p.source.location, document: p.source.document, field: START_AFTER_FIELD, message}
}

/** At most this many names in one sentence: an annotation of 100 000 names must not become a megabyte error. */
const MAX_NAMES_SHOWN = 10

function nameList(names: readonly string[], quote: boolean): string {
  const shown = names.slice(0, MAX_NAMES_SHOWN).map((n) => (quote ? `"${n}"` : n))
  return names.length > MAX_NAMES_SHOWN ? `${shown.join(', ')} and ${names.length - MAX_NAMES_SHOWN} more` : shown.join(', ')
}

/** A cycle's pods (each once) and where in it a pod stands: shared by every pod on it. */
interface CycleAt {
  ring: readonly string[]
  at: number
}

/** `a → b → c → a` from the pod at `at`, cut short for a long cycle. */
function cycleText({ring, at}: CycleAt): string {
  const n = ring.length
  const first = ring[at]!
  const shown = Array.from({length: Math.min(n, MAX_NAMES_SHOWN)}, (_, i) => ring[(at + i) % n]!)
  return n <= MAX_NAMES_SHOWN ? [...shown, first].join(' → ') : `${shown.join(' → ')} → … → ${first} (${n} pods)`
}

/**
 * Every pod's start-after names must be other pods of the same set, without a cycle: a pod that
 * could never start is refused before anything runs. One issue per offending pod.
 */
export function startAfterIssues(pods: readonly StartAfterPod[]): FieldIssue[] {
  const known = new Set(pods.map((p) => p.manifestName))
  const issues: FieldIssue[] = []
  const edges = new Map<string, string[]>()
  for (const p of pods) {
    const names = startAfterOf(p)
    if (names.length === 0) continue
    if (names.includes(p.manifestName)) {
      issues.push(issue(p, `pod "${p.manifestName}" names itself; a pod cannot start after itself`))
      continue
    }
    const unknown = names.filter((n) => !known.has(n))
    if (unknown.length > 0) {
      issues.push(issue(p, `names ${nameList(unknown, true)}, which no manifest defines (known pods: ${nameList([...known].sort(), false)})`))
      continue
    }
    edges.set(p.manifestName, names)
  }
  const cycles = cyclesOf(edges)
  for (const p of pods) {
    const cycle = cycles.get(p.manifestName)
    if (cycle) issues.push(issue(p, `forms a cycle: ${cycleText(cycle)}; none of these pods could ever start`))
  }
  return issues
}

/**
 * For every name on a cycle, a cycle through it (name → … → name). Linear in names and edges and
 * without recursion: a chain of thousands of pods is checked in milliseconds, on any stack. (A
 * search from every pod, copying its path at each step, took half a minute for 2000 pods.)
 */
function cyclesOf(edges: ReadonlyMap<string, string[]>): Map<string, CycleAt> {
  const out = new Map<string, CycleAt>()
  for (const component of stronglyConnected(edges)) {
    if (component.length < 2) continue // a pod naming itself is refused before
    const members = new Set(component)
    // The pods of one component not yet given a cycle; each search gives one to every pod on the
    // cycle it finds (all of them, for a ring). A few searches at most, then the rest are named.
    let searches = 0
    for (const start of component) {
      if (out.has(start)) continue
      if (++searches > MAX_NAMES_SHOWN) {
        out.set(start, {ring: [start, `… (one of ${members.size} pods that start after one another: ${nameList(component, false)})`], at: 0})
        continue
      }
      // One ring for all its pods (a copy each would be quadratic in the cycle's length).
      const ring = shortestCycle(start, edges, members).slice(0, -1)
      ring.forEach((name, at) => {
        if (!out.has(name)) out.set(name, {ring, at})
      })
    }
  }
  return out
}

/** A shortest cycle start → … → start inside one strongly connected component (breadth first). */
function shortestCycle(start: string, edges: ReadonlyMap<string, string[]>, members: ReadonlySet<string>): string[] {
  const parent = new Map<string, string>()
  const queue = [start]
  for (let q = 0; q < queue.length; q++) {
    const name = queue[q]!
    for (const next of edges.get(name) ?? []) {
      if (next === start) {
        const path = [start]
        for (let at = name; at !== start; at = parent.get(at)!) path.push(at)
        return [start, ...path.slice(1).reverse(), start]
      }
      if (!members.has(next) || parent.has(next)) continue
      parent.set(next, name)
      queue.push(next)
    }
  }
  return [start, start] // unreachable: every member of a component lies on a cycle
}

/** Tarjan's strongly connected components, with an explicit stack. */
function stronglyConnected(edges: ReadonlyMap<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const components: string[][] = []
  let counter = 0
  for (const root of edges.keys()) {
    if (index.has(root)) continue
    const work: Array<{name: string; next: number}> = [{name: root, next: 0}]
    index.set(root, counter)
    low.set(root, counter++)
    stack.push(root)
    onStack.add(root)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const succ = edges.get(frame.name) ?? []
      if (frame.next < succ.length) {
        const w = succ[frame.next++]!
        if (!index.has(w)) {
          index.set(w, counter)
          low.set(w, counter++)
          stack.push(w)
          onStack.add(w)
          work.push({name: w, next: 0})
        } else if (onStack.has(w)) low.set(frame.name, Math.min(low.get(frame.name)!, index.get(w)!))
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.name, Math.min(low.get(parent.name)!, low.get(frame.name)!))
      if (low.get(frame.name) === index.get(frame.name)) {
        const component: string[] = []
        let w: string
        do {
          w = stack.pop()!
          onStack.delete(w)
          component.push(w)
        } while (w !== frame.name)
        components.push(component)
      }
    }
  }
  return components
}
