// The JSON type of every value of a Pod, ConfigMap or Secret, checked against its field's shape in
// the upstream OpenAPI (src/api/generated), as the kubelet's and kubectl's JSON decoding does: an
// object they cannot decode (a list where the API has an object, a string where it has an integer,
// an int32 beyond 2^31) is refused, whatever `--validate` says about unknown fields. The field
// checks (validate.ts) say more about the fields kube-node reads; this walk guarantees that no
// field, read today or tomorrow, reaches admission, env or volume code with a type it does not
// expect. Pure.
//
// Go's decoding tolerates, and so does this: null for any field (the zero value: unset); a number
// or a string for an int-or-string and for a quantity; a whole number written as a float (JSON has
// one number type). A null list item or map value is refused, where Go would make it an empty
// string or object: `command: [null]` or a ConfigMap's `data: {key: null}` is a mistake more often
// than a wish for "", and the later stages need not guess. Unknown keys are left to unknown-fields.ts.
import {FIELDS, KINDS} from '../api/generated/schema.js'
import type {FieldIssue} from '../util/errors.js'
import {isObject, show, typeName} from '../util/check.js'
import {joinPath, keySegment} from '../util/field-path.js'
import {issueAt, type DocumentRef} from './where.js'

export interface ShapeIssue {
  field: string
  message: string
}

/** Enough to fix first: a document of a million wrong values costs no more than this many. */
export const MAX_SHAPE_ISSUES = 100

/** The values of one object of `kind` whose JSON type its field cannot hold, at most `limit`. */
export function shapeIssues(kind: string, object: unknown, limit = MAX_SHAPE_ISSUES): ShapeIssue[] {
  const type = Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined
  const found: ShapeIssue[] = []
  if (type) walk(object, type, '', found, limit)
  return found
}

/**
 * The field checks' issues plus the shape issues of fields they did not report: one sentence per
 * field, the field check's when both found one (it knows what the field means). A shape issue
 * inside a field reported for another reason (a volume with two sources) is a second problem and
 * is kept.
 */
export function withShapeIssues(issues: FieldIssue[], kind: string, object: unknown, where: DocumentRef): FieldIssue[] {
  const shape = shapeIssues(kind, object)
  if (shape.length === 0) return issues
  const reported = new Set(issues.map((i) => i.field))
  for (const s of shape) {
    const issue = issueAt(where, s.field, s.message)
    if (!reported.has(issue.field)) issues.push(issue)
  }
  return issues
}

function walk(value: unknown, shape: string, path: string, found: ShapeIssue[], limit: number): void {
  if (found.length >= limit) return
  // null is the zero value in Go's decoding: the field is unset.
  if (value === null || value === undefined) return
  if (shape.startsWith('{}')) {
    const of = shape.slice(2)
    if (!isObject(value)) {
      found.push({field: path, message: `must be ${expected(shape)}, got ${typeName(value)}`})
      return
    }
    for (const [k, v] of Object.entries(value)) {
      if (found.length >= limit) return
      element(v, of, joinPath(path, keySegment(k)), found, limit)
    }
    return
  }
  if (shape.endsWith('[]')) {
    const of = shape.slice(0, -2)
    if (!Array.isArray(value)) {
      found.push({field: path, message: `must be ${expected(shape)}, got ${typeName(value)}`})
      return
    }
    for (let i = 0; i < value.length && found.length < limit; i++) element(value[i], of, `${path}[${i}]`, found, limit)
    return
  }
  const fields = Object.hasOwn(FIELDS, shape) ? FIELDS[shape] : undefined
  if (!fields) {
    const problem = scalarProblem(shape, value)
    if (problem) found.push({field: path, message: problem})
    return
  }
  if (!isObject(value)) {
    found.push({field: path, message: `must be ${expected(shape)}, got ${typeName(value)}`})
    return
  }
  for (const [k, v] of Object.entries(value)) {
    if (found.length >= limit) return
    const known = Object.hasOwn(fields, k) ? fields[k] : undefined
    if (known !== undefined) walk(v, known, joinPath(path, keySegment(k)), found, limit)
  }
}

/** A list item or map value: as a field, except that null is refused (see the top of this file). */
function element(value: unknown, shape: string, path: string, found: ShapeIssue[], limit: number): void {
  if (value !== null) {
    walk(value, shape, path, found, limit)
    return
  }
  const problem = Object.hasOwn(FIELDS, shape) || shape.startsWith('{}') || shape.endsWith('[]') ? `must be ${expected(shape)}, got null` : scalarProblem(shape, null)
  if (problem) found.push({field: path, message: problem})
}

/** What a value of a non-scalar shape must be, for messages: `an object (Container)`, `a list of strings`. */
function expected(shape: string): string {
  if (shape.startsWith('{}')) return `a map of ${plural(shape.slice(2))}`
  if (shape.endsWith('[]')) return `a list of ${plural(shape.slice(0, -2))}`
  return `an object (${shape})`
}

/** The integer widths of the API: bounds, and how a message names them (2^63 is not printable exactly). */
const INT32 = {min: -(2 ** 31), maxExclusive: 2 ** 31, range: 'between -2147483648 and 2147483647 (int32)'}
const INT64 = {min: -(2 ** 63), maxExclusive: 2 ** 63, range: 'between -9223372036854775808 and 9223372036854775807 (int64)'}

/** Go's resource.ParseQuantity syntax: a signed decimal with an optional suffix or exponent. */
const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?$/
/** What metav1.Time accepts: RFC 3339, with optional fractional seconds. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/** Why `value` cannot be decoded into a scalar field of `shape`, or undefined. */
export function scalarProblem(shape: string, value: unknown): string | undefined {
  switch (shape) {
    case 'string':
      if (typeof value === 'string') return undefined
      // A YAML `true` or `8080` meant as text is the usual cause.
      return typeof value === 'number' || typeof value === 'boolean'
        ? `must be a string (quote it in YAML), got ${typeName(value)}`
        : `must be a string, got ${typeName(value)}`
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be true or false, got ${show(value)}`
    case 'int32':
      return integerProblem(value, INT32)
    case 'int64':
      return integerProblem(value, INT64)
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `must be a number, got ${show(value)}`
    case 'int-or-string':
      // intstr.IntOrString: a JSON string, or else an int32.
      if (typeof value === 'string') return undefined
      if (typeof value !== 'number' || !Number.isInteger(value)) return `must be an integer or a string, got ${show(value)}`
      return integerProblem(value, INT32)
    case 'quantity':
      if ((typeof value === 'string' && QUANTITY.test(value)) || (typeof value === 'number' && Number.isFinite(value))) return undefined
      return `must be a quantity such as "500m" or "64Mi", got ${show(value)}`
    case 'time':
      return typeof value === 'string' && RFC3339.test(value) ? undefined : `must be a time such as "2024-05-01T12:00:00Z" (RFC 3339), got ${show(value)}`
    default:
      // `any` (free-form objects) and shapes this walk does not know: nothing to check.
      return undefined
  }
}

function integerProblem(value: unknown, width: typeof INT32): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return `must be an integer, got ${show(value)}`
  if (value < width.min || value >= width.maxExclusive) return `must be an integer ${width.range}, got ${show(value)}`
  return undefined
}

/** How the values of a list or map are named: `strings`, `quantities`, `Container objects`. */
function plural(shape: string): string {
  switch (shape) {
    case 'string': return 'strings'
    case 'boolean': return 'booleans'
    case 'int32': case 'int64': return 'integers'
    case 'number': return 'numbers'
    case 'int-or-string': return 'integers or strings'
    case 'quantity': return 'quantities'
    case 'time': return 'times'
    case 'any': return 'values'
    default: return Object.hasOwn(FIELDS, shape) ? `${shape} objects` : 'values'
  }
}
