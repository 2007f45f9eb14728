// `GET …/pods?watch=true`: the pods' changes as a stream of WatchEvents (one JSON object a line),
// from a list's resourceVersion (replaying what the hub's history holds) or from now (every
// current pod as ADDED first), in object or Table form, until the client goes away, the watch has
// run its time or the server stops.
import type {Pod} from '../../api/types.js'
import {KUBE_API_LIMITS} from './limits.js'
import type {HubChange} from './pod-hub.js'
import {podMatches, type PodFilter} from './pods.js'
import {intParam} from './query.js'
import type {ApiContext, ApiRequest} from './request.js'
import {ApiError, badRequest, failure} from './status.js'
import {MAX_PENDING_BYTES} from './streams.js'
import {watchEventFor} from './watch-events.js'

export const tooManyStreams = (): ApiError => new ApiError(failure('TooManyRequests', `too many watches and log reads open (at most ${KUBE_API_LIMITS.maxStreams}); try again later`))

export function byNamespaceName(a: Pod, b: Pod): number {
  const ka = `${a.metadata?.namespace ?? ''}/${a.metadata?.name ?? ''}`
  const kb = `${b.metadata?.namespace ?? ''}/${b.metadata?.name ?? ''}`
  return ka < kb ? -1 : ka > kb ? 1 : 0
}

/** `podObject` renders a pod as the client asked (object or one-row Table). */
export async function streamPodWatch(ctx: ApiContext, filter: PodFilter, r: ApiRequest, podObject: (pod: Pod, rv: string) => unknown): Promise<void> {
  const {hub, streams} = ctx
  const {res, query} = r
  const rvText = query.get('resourceVersion')
  if (rvText !== undefined && rvText !== '' && !/^\d{1,16}$/.test(rvText)) throw badRequest('resourceVersion: expected a resourceVersion from a list')
  const timeout = intParam(query, 'timeoutSeconds', 0, Number.MAX_SAFE_INTEGER) || KUBE_API_LIMITS.maxWatchSeconds
  await hub.refresh()
  const slot = streams.acquire(res, {maxMs: Math.min(timeout, KUBE_API_LIMITS.maxWatchSeconds) * 1000, idleMs: KUBE_API_LIMITS.watchIdleSeconds * 1000})
  if (!slot) throw tooManyStreams()
  const {signal} = slot
  res.writeHead(200, {'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private'})
  // A client waits for the headers before it reads: send them now, not with the first event.
  res.flushHeaders()
  const matches = (p: Pod): boolean => podMatches(filter, p)
  const emit = (type: string, object: unknown): void => {
    if (signal.aborted) return
    slot.touch()
    res.write(JSON.stringify({type, object}) + '\n')
    // A client that does not read is let go rather than buffered for.
    if (res.writableLength > MAX_PENDING_BYTES) res.destroy()
  }
  const emitChanges = (changes: readonly HubChange[]): void => {
    for (const c of changes) {
      const e = watchEventFor(c, matches)
      if (e) emit(e.type, podObject(e.pod, String(c.resourceVersion)))
    }
  }
  // No await from here to subscribe: nothing can change in between.
  if (rvText === undefined || rvText === '' || rvText === '0') {
    for (const p of hub.pods().filter(matches).sort(byNamespaceName)) emit('ADDED', podObject(p, p.metadata?.resourceVersion ?? hub.resourceVersion))
  } else {
    const missed = hub.changesSince(Number(rvText))
    if (missed === 'expired') {
      emit('ERROR', failure('Expired', `too old resource version: ${rvText} (${hub.resourceVersion})`))
      res.end()
      return
    }
    emitChanges(missed)
  }
  const unsubscribe = hub.subscribe(emitChanges)
  await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), {once: true})))
  unsubscribe()
  if (!res.destroyed) res.end()
}
