// `GET …/pods/{name}/log` parameters (PodLogOptions) and what they do to each line. The node
// reads lines with or without their CRI timestamp; `sinceSeconds`/`sinceTime` need the timestamp,
// so it is always asked for and cut off here when the client did not want it. Pure.
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

/** Whether the node must prefix lines with their timestamp for this query. */
export function needsTimestamps(q: LogQuery): boolean {
  return q.timestamps || q.sinceMs !== undefined
}

/** A line as the client wants it, or undefined to skip it; `line` carries its timestamp when needsTimestamps. */
export function shapeLine(q: LogQuery, line: string): string | undefined {
  if (q.sinceMs === undefined) return line
  const space = line.indexOf(' ')
  const at = space === -1 ? NaN : Date.parse(line.slice(0, space))
  if (!Number.isNaN(at) && at < q.sinceMs) return undefined
  return q.timestamps || space === -1 || Number.isNaN(at) ? line : line.slice(space + 1)
}
