// Small typed checks shared by the validators. Each reads an `unknown` value, reports a wrong
// type as an issue (never throws), and returns the narrowed value or undefined. Pure.
import {joinPath, keySegment} from './field-path.js'

/** Collects issues for one object; `field` is relative to that object. */
export type Report = (field: string, message: string) => void

export type JsonObject = Record<string, unknown>

export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** How a value's type is named in messages. */
export function typeName(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'list'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v === 'object' ? 'object' : typeof v
}

export function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v)
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return typeName(v)
}

export function getObject(report: Report, field: string, v: unknown): JsonObject | undefined {
  if (v === undefined || v === null) return undefined
  if (isObject(v)) return v
  report(field, `must be an object, got ${typeName(v)}`)
  return undefined
}

export function getList(report: Report, field: string, v: unknown): unknown[] | undefined {
  if (v === undefined || v === null) return undefined
  if (Array.isArray(v)) return v
  report(field, `must be a list, got ${typeName(v)}`)
  return undefined
}

export function getString(report: Report, field: string, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string') return v
  report(field, `must be a string, got ${typeName(v)}`)
  return undefined
}

export function checkBoolean(report: Report, field: string, v: unknown): void {
  if (v !== undefined && v !== null && typeof v !== 'boolean') {
    report(field, `must be true or false, got ${show(v)}`)
  }
}

/** An integer within [min, max]; returns it when valid. */
export function getInteger(report: Report, field: string, v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    report(field, `must be an integer, got ${show(v)}`)
    return undefined
  }
  if (v < min || v > max) {
    // Without a stated maximum, the bound is what a JavaScript number holds exactly.
    const message = max !== Number.MAX_SAFE_INTEGER ? `must be between ${min} and ${max}`
      : v < min ? `must be ${min === 0 ? 'non-negative' : `at least ${min}`}` : `must be at most ${max}`
    report(field, `${message}, got ${v}`)
    return undefined
  }
  return v
}

export function checkEnum(report: Report, field: string, v: unknown, allowed: readonly string[]): void {
  if (v === undefined || v === null) return
  if (typeof v !== 'string' || !allowed.includes(v)) {
    report(field, `must be one of ${allowed.join(', ')}, got ${show(v)}`)
  }
}

/** A list of strings, e.g. `command`. */
export function checkStringList(report: Report, field: string, v: unknown): void {
  const list = getList(report, field, v)
  list?.forEach((item, i) => getString(report, `${field}[${i}]`, item))
}

/** A map of string values, e.g. `nodeSelector`. */
export function checkStringMap(report: Report, field: string, v: unknown): void {
  const map = getObject(report, field, v)
  if (!map) return
  for (const [k, value] of Object.entries(map)) getString(report, joinPath(field, keySegment(k)), value)
}

/** A report for a nested object: its fields are prefixed with `prefix`. */
export function nested(report: Report, prefix: string): Report {
  return (field, message) => report(joinPath(prefix, field), message)
}

/** A list item that must be an object; unlike an optional field, null is reported too. */
export function getItem(report: Report, field: string, v: unknown): JsonObject | undefined {
  if (isObject(v)) return v
  report(field, `must be an object, got ${typeName(v)}`)
  return undefined
}
