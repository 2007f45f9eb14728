// `GET …/pods/{name}/log`: a container's log as plain text, through the node's log reader, shaped
// by the query (since, timestamps, limitBytes). A follow is a bounded stream like a watch. Errors
// before the first line are a Status; after it, the response just ends.
import {InvalidInputError, NotFoundError} from '../../util/errors.js'
import {KUBE_API_LIMITS} from './limits.js'
import {needsTimestamps, parseLogQuery, shapeLine} from './log-query.js'
import {tooManyStreams} from './pod-watch.js'
import type {ApiContext, ApiRequest} from './request.js'
import {ApiError, badRequest, failure, notFound} from './status.js'
import {MAX_PENDING_BYTES} from './streams.js'

export async function streamPodLog(ctx: ApiContext, namespace: string, name: string, r: ApiRequest): Promise<void> {
  const {hub, streams, data, now} = ctx
  const {req, res} = r
  const q = parseLogQuery(r.query, now())
  await hub.refresh()
  if (!hub.pods().some((p) => p.metadata?.namespace === namespace && p.metadata?.name === name)) throw notFound('pods', name)
  const ac = new AbortController()
  let signal: AbortSignal = ac.signal
  if (q.follow) {
    const s = streams.acquire(res, KUBE_API_LIMITS.maxFollowSeconds * 1000)
    if (!s) throw tooManyStreams()
    signal = AbortSignal.any([s, ac.signal])
  } else {
    res.once('close', () => ac.abort())
  }
  let sent = 0
  const write = (raw: string): void => {
    if (signal.aborted) return
    const line = shapeLine(q, raw)
    if (line === undefined) return
    if (!res.headersSent) res.writeHead(200, {'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private'})
    let chunk = line + '\n'
    if (q.limitBytes !== undefined && sent + Buffer.byteLength(chunk) > q.limitBytes) {
      chunk = Buffer.from(chunk).subarray(0, q.limitBytes - sent).toString('utf8')
      ac.abort()
    }
    sent += Buffer.byteLength(chunk)
    if (req.method !== 'HEAD') res.write(chunk)
    if (res.writableLength > MAX_PENDING_BYTES * 8) res.destroy()
  }
  try {
    await data.log({namespace, name, container: q.container, previous: q.previous, follow: q.follow, tail: q.tailLines, timestamps: needsTimestamps(q)}, write, signal)
  } catch (err) {
    if (signal.aborted && res.headersSent) {
      // The client went away or the limit was reached: nothing more to say.
    } else if (res.headersSent) {
      res.destroy()
      return
    } else if (err instanceof NotFoundError) throw new ApiError(failure('NotFound', err.message, {name, kind: 'pods'}))
    else if (err instanceof InvalidInputError) throw badRequest(err.message)
    else if (!signal.aborted) throw err
  }
  if (!res.headersSent) res.writeHead(200, {'Content-Type': 'text/plain', 'Content-Length': 0})
  if (!res.destroyed) res.end()
}
