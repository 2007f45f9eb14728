// Which form a client asked for. kubectl's `get` asks
// `application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json`;
// anything else (including the aggregated-discovery types, which fall back to plain JSON) gets
// the object itself. Pure.
import type {IncludeObject} from './table.js'
import {badRequest} from './status.js'
import {goParseBool, type Query} from './query.js'

export function wantsTable(accept: string | undefined): boolean {
  if (!accept) return false
  return accept.split(',').some((part) => {
    const params = part.split(';').map((p) => p.trim().replace(/\s+/g, ''))
    return params.includes('as=Table') && params.includes('g=meta.k8s.io') && (params.includes('v=v1') || params.includes('v=v1beta1'))
  })
}

export function includeObject(q: Query): IncludeObject {
  const v = q.get('includeObject')
  if (v === undefined || v === '' || v === 'Metadata') return 'Metadata'
  if (v === 'None' || v === 'Object') return v
  throw badRequest('includeObject: expected None, Metadata or Object')
}

/**
 * Whether a JSON answer is indented, as the API server decides it: `pretty` read with Go's
 * ParseBool (an unreadable value is false), else for the user agents of curl, Wget and browsers.
 */
export function wantsPretty(pretty: string | undefined, userAgent: string | undefined): boolean {
  if (pretty !== undefined && pretty !== '') return goParseBool(pretty) ?? false
  const ua = userAgent ?? ''
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0')
}
