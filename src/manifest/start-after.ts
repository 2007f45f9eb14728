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
    if (err) return `names pod ${JSON.stringify(n)}, which is not a valid pod name: ${err}`
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
      issues.push(issue(p, `names ${unknown.map((n) => `"${n}"`).join(', ')}, which no manifest defines (known pods: ${[...known].sort().join(', ')})`))
      continue
    }
    edges.set(p.manifestName, names)
  }
  for (const p of pods) {
    const cycle = cycleFrom(p.manifestName, edges)
    if (cycle) issues.push(issue(p, `forms a cycle: ${cycle.join(' → ')}; none of these pods could ever start`))
  }
  return issues
}

/** The cycle through `start` (start → … → start), if there is one. */
function cycleFrom(start: string, edges: ReadonlyMap<string, string[]>): string[] | undefined {
  const seen = new Set<string>()
  const walk = (name: string, path: string[]): string[] | undefined => {
    for (const next of edges.get(name) ?? []) {
      if (next === start) return [...path, next]
      if (seen.has(next)) continue
      seen.add(next)
      const found = walk(next, [...path, next])
      if (found) return found
    }
    return undefined
  }
  return walk(start, [start])
}
