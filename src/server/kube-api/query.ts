// The query string of an API request, bounded (a root daemon parses it) and read the way the API
// server reads it (apimachinery's url.Values conversions): a boolean is false only when absent,
// `0` or `false` in any case, and true for anything else (`True`, `t`, `1`, even an empty
// value); an integer is Go's ParseInt, refused with its message; unknown parameters are ignored.
// Pure.
import {badRequest} from './status.js'

export const MAX_QUERY_PARAMS = 32

export type Query = ReadonlyMap<string, string>

export function parseQuery(url: string): Query {
  const q = url.indexOf('?')
  if (q === -1) return new Map()
  const hash = url.indexOf('#', q)
  let params: URLSearchParams
  try {
    params = new URLSearchParams(url.slice(q + 1, hash === -1 ? undefined : hash))
  } catch {
    throw badRequest('malformed query string')
  }
  const out = new Map<string, string>()
  let n = 0
  for (const [k, v] of params) {
    if (++n > MAX_QUERY_PARAMS) throw badRequest(`too many query parameters (at most ${MAX_QUERY_PARAMS})`)
    // The first value wins, as Go's url.Values.Get.
    if (!out.has(k)) out.set(k, v)
  }
  return out
}

/** The API server's reading of a boolean value (runtime.Convert_Slice_string_To_bool). */
export function apiBool(v: string): boolean {
  return !(v === '0' || v.toLowerCase() === 'false')
}

export function boolParam(q: Query, name: string): boolean {
  const v = q.get(name)
  return v !== undefined && apiBool(v)
}

/** A boolean whose absence means something of its own (sendInitialEvents). */
export function optionalBoolParam(q: Query, name: string): boolean | undefined {
  const v = q.get(name)
  return v === undefined ? undefined : apiBool(v)
}

/** Go's strconv.ParseBool, which `pretty` is read with: undefined for anything else. */
export function goParseBool(v: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false
  return undefined
}

const INT64_MAX = 2n ** 63n - 1n

/**
 * An int64 parameter as Go's ParseInt reads it, with its message on a bad value; clamped into
 * [min, max] (JavaScript's safe range at most) where the API server would accept it anyway.
 */
export function int64Param(q: Query, name: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = q.get(name)
  if (v === undefined) return undefined
  if (!/^[+-]?\d+$/.test(v)) throw badRequest(`strconv.ParseInt: parsing ${goQuote(v)}: invalid syntax`)
  const n = BigInt(v)
  if (n > INT64_MAX || n < -INT64_MAX - 1n) throw badRequest(`strconv.ParseInt: parsing ${goQuote(v)}: value out of range`)
  return Math.min(max, Math.max(min, Number(n)))
}

/** A value quoted as Go's %q would print it (enough for a message). */
export function goQuote(v: string): string {
  return JSON.stringify(v)
}

export function intParam(q: Query, name: string, min: number, max: number): number | undefined {
  const v = q.get(name)
  if (v === undefined || v === '') return undefined
  if (!/^-?\d{1,15}$/.test(v)) throw badRequest(`${name}: expected an integer`)
  const n = Number(v)
  if (n < min || n > max) throw badRequest(`${name}: must be between ${min} and ${max}`)
  return n
}
