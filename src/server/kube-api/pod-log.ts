// `GET …/pods/{name}/log`: a container's log as plain text, through the node's log reader, shaped
// by the query (since, timestamps, limitBytes). Every log read, followed or not, is a stream
// counted with the watches; it is written at the client's pace (backpressure.ts), so a client
// that reads slowly holds the reader, not the daemon's memory. Errors before the first byte are a
// Status; after it, the response just ends.
import {InvalidInputError, NotFoundError} from '../../util/errors.js'
import {GatheredWrites} from '../../util/gathered-writes.js'
import {writeAtClientPace} from './backpressure.js'
import {KUBE_API_LIMITS} from './limits.js'
import {keepLine, parseLogQuery} from './log-query.js'
import {tooManyStreams} from './pod-watch.js'
import type {ApiContext, ApiRequest} from './request.js'
import {ApiError, badRequest, failure, notFound} from './status.js'
import type {LogLinePiece} from './types.js'

const NEWLINE = Buffer.from('\n')

export async function streamPodLog(ctx: ApiContext, namespace: string, name: string, r: ApiRequest): Promise<void> {
  const {hub, streams, share, data, now} = ctx
  const {req, res} = r
  const q = parseLogQuery(r.query, now())
  await hub.refresh()
  if (!hub.pods().some((p) => p.metadata?.namespace === namespace && p.metadata?.name === name)) throw notFound('pods', name)
  const slot = streams.acquire(res, {maxMs: KUBE_API_LIMITS.maxLogSeconds * 1000})
  if (!slot) throw tooManyStreams()
  // limitBytes reached: the reader stops as when the client goes away.
  const enough = new AbortController()
  const signal = AbortSignal.any([slot.signal, enough.signal])
  // Lines go out in 64 KiB writes, each within the turn's share for all log reads (turn-share.ts).
  const stalledMs = KUBE_API_LIMITS.stalledClientSeconds * 1000
  const out = new GatheredWrites(
    async (chunk) => {
      await share.take(chunk.length)
      await writeAtClientPace(res, chunk, slot.signal, stalledMs)
    },
    () => res.destroy(),
  )
  let sent = 0
  let skipping = false
  // No promise for a line the client kept pace with: a log is read line by line.
  const write = (p: LogLinePiece): void | Promise<void> => {
    if (signal.aborted) return
    if (p.first) skipping = !keepLine(q, p.timestamp)
    if (skipping) return
    if (!res.headersSent) res.writeHead(200, {'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private'})
    let parts = p.last ? [p.data, NEWLINE] : [p.data]
    let length = p.data.length + (p.last ? NEWLINE.length : 0)
    if (q.limitBytes !== undefined && sent + length >= q.limitBytes) {
      parts = [Buffer.concat(parts).subarray(0, q.limitBytes - sent)]
      length = parts[0]!.length
      enough.abort()
    }
    sent += length
    slot.touch()
    // HEAD: the headers say all there is; nothing more is read.
    if (req.method === 'HEAD') enough.abort()
    else return out.write(parts)
  }
  try {
    await data.log({namespace, name, container: q.container, previous: q.previous, follow: q.follow, tail: q.tailLines, timestamps: q.timestamps}, write, signal)
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
  await out.flush()
  if (!res.headersSent) res.writeHead(200, {'Content-Type': 'text/plain', 'Content-Length': 0})
  if (!res.destroyed) res.end()
}
