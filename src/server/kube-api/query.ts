// The query string of an API request, bounded (a root daemon parses it) and read the way the API
// server reads it: booleans as `true`/`1`, integers in range, unknown parameters ignored. Pure.
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

export function boolParam(q: Query, name: string): boolean {
  const v = q.get(name)
  if (v === undefined || v === '' || v === 'false' || v === '0') return false
  if (v === 'true' || v === '1') return true
  throw badRequest(`${name}: expected true or false`)
}

export function intParam(q: Query, name: string, min: number, max: number): number | undefined {
  const v = q.get(name)
  if (v === undefined || v === '') return undefined
  if (!/^-?\d{1,15}$/.test(v)) throw badRequest(`${name}: expected an integer`)
  const n = Number(v)
  if (n < min || n > max) throw badRequest(`${name}: must be between ${min} and ${max}`)
  return n
}
