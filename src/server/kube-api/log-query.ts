// `GET …/pods/{name}/log` parameters (PodLogOptions) and which lines they keep: the node's log
// reader hands each line's timestamp beside its text, so `sinceSeconds`/`sinceTime` are decided
// on it whether or not the client wants timestamps printed. Pure.
import {boolParam, intParam, type Query} from './query.js'
import {badRequest} from './status.js'
import {isDnsLabel} from './route.js'

export interface LogQuery {
  container?: string
  follow: boolean
  previous: boolean
  tailLines?: number
  timestamps: boolean
  /** Only lines at or after this time (ms since the epoch). */
  sinceMs?: number
  limitBytes?: number
}

export function parseLogQuery(q: Query, now: number): LogQuery {
  const container = q.get('container') || undefined
  if (container !== undefined && !isDnsLabel(container)) throw badRequest('container: a container name is a DNS-1123 label')
  const tailLines = intParam(q, 'tailLines', 0, 1_000_000)
  const sinceSeconds = intParam(q, 'sinceSeconds', 1, 10 * 365 * 86_400)
  const sinceTime = q.get('sinceTime')
  if (sinceSeconds !== undefined && sinceTime) throw badRequest('at most one of sinceTime or sinceSeconds may be specified')
  let sinceMs: number | undefined
  if (sinceSeconds !== undefined) sinceMs = now - sinceSeconds * 1000
  else if (sinceTime) {
    sinceMs = Date.parse(sinceTime)
    if (Number.isNaN(sinceMs)) throw badRequest('sinceTime: expected an RFC 3339 time')
  }
  const limitBytes = intParam(q, 'limitBytes', 1, Number.MAX_SAFE_INTEGER)
  return {
    ...(container !== undefined ? {container} : {}),
    follow: boolParam(q, 'follow'),
    previous: boolParam(q, 'previous'),
    ...(tailLines !== undefined ? {tailLines} : {}),
    timestamps: boolParam(q, 'timestamps'),
    ...(sinceMs !== undefined ? {sinceMs} : {}),
    ...(limitBytes !== undefined ? {limitBytes} : {}),
  }
}

/** Whether a line whose first record has this timestamp ('' for none) is wanted (sinceTime, sinceSeconds). */
export function keepLine(q: LogQuery, timestamp: string): boolean {
  if (q.sinceMs === undefined) return true
  const at = Date.parse(timestamp)
  return Number.isNaN(at) || at >= q.sinceMs
}
