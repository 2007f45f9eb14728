// Unknown fields, as kubectl's default `--validate=strict` reports them: every key of a Pod,
// ConfigMap or Secret that the upstream OpenAPI (src/api/generated) does not define, named by its
// field path, with the known field it most likely meant. Pure.
import {API_VERSION_SOURCE, FIELDS, KINDS} from '../api/generated/schema.js'
import {isObject} from '../util/check.js'
import {joinPath, keySegment} from '../util/field-path.js'
import {newerField} from './newer-fields.js'

/** What `--validate` does with unknown fields: an error (exit 2), a warning, or nothing. */
export type ValidationMode = 'strict' | 'warn' | 'ignore'
export const VALIDATION_MODES: readonly ValidationMode[] = ['strict', 'warn', 'ignore']

export interface UnknownField {
  field: string
  message: string
}

/** Enough to fix first: a document of a million unknown keys costs no more than this many. */
export const MAX_UNKNOWN_FIELDS = 100

/** The unknown fields of one object of `kind` (top level: apiVersion, kind, metadata…), at most `limit`. */
export function unknownFields(kind: string, object: unknown, limit = MAX_UNKNOWN_FIELDS): UnknownField[] {
  const type = Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined
  const found: UnknownField[] = []
  if (type) walk(object, type, '', found, limit)
  return found
}

function walk(value: unknown, shape: string, path: string, found: UnknownField[], limit: number): void {
  if (found.length >= limit) return
  if (shape.startsWith('{}')) {
    if (isObject(value)) for (const [k, v] of Object.entries(value)) walk(v, shape.slice(2), joinPath(path, keySegment(k)), found, limit)
    return
  }
  if (shape.endsWith('[]')) {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, shape.slice(0, -2), `${path}[${i}]`, found, limit))
    return
  }
  const fields = Object.hasOwn(FIELDS, shape) ? FIELDS[shape] : undefined
  // Scalars, free-form objects, and values of the wrong type (shape-check.ts names those).
  if (!fields || !isObject(value)) return
  for (const [k, v] of Object.entries(value)) {
    if (found.length >= limit) return
    const field = joinPath(path, keySegment(k))
    const known = Object.hasOwn(fields, k) ? fields[k] : undefined
    if (known === undefined) found.push({field, message: unknownMessage(k, Object.keys(fields), shape)})
    else walk(v, known, field, found, limit)
  }
}

/** With no likely typo, the message names the API version: a field of a newer Kubernetes (a
 * manifest written for its documentation) is told apart from a made-up one. */
function unknownMessage(key: string, known: readonly string[], type: string): string {
  const newer = newerField(type, key)
  if (newer !== undefined) return `unknown field (not in the Kubernetes ${API_VERSION_SOURCE} API): ${newer}`
  const guess = closest(key, known)
  return guess ? `unknown field (did you mean "${guess}"?)` : `unknown field (not in the Kubernetes ${API_VERSION_SOURCE} API)`
}

/** The known name a typo most likely meant: same letters ignoring case, or at most two edits away. */
function closest(key: string, known: readonly string[]): string | undefined {
  if (key.length > 64) return undefined
  const lower = key.toLowerCase()
  const sameCase = known.find((k) => k.toLowerCase() === lower)
  if (sameCase) return sameCase
  let best: string | undefined
  let bestDistance = Math.min(2, Math.floor(key.length / 3))
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase(), bestDistance)
    if (d <= bestDistance && (best === undefined || d < bestDistance)) {
      best = k
      bestDistance = d
    }
  }
  return best
}

/** Edit distance with swapped neighbours as one edit (`paht` → `path`), giving up past `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let before: number[] = []
  let prev = Array.from({length: b.length + 1}, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1)
      row.push(d)
      rowMin = Math.min(rowMin, d)
    }
    if (rowMin > limit) return limit + 1
    before = prev
    prev = row
  }
  return prev[b.length]!
}
