// `GET …/pods?watch=true`: the pods' changes as a stream of WatchEvents (one JSON object a line),
// from a list's resourceVersion (replaying what the hub's history holds) or from now (every
// current pod as ADDED first), in object or Table form, until the client goes away, the watch has
// run its time or the server stops. With allowWatchBookmarks, BOOKMARK events carry the current
// resourceVersion as the API server's watch cache sends them: about once a minute and just before
// the watch's time is up, so a client that watches again starts from there, not from a version
// the history may have dropped.
import type {Pod} from '../../api/types.js'
import {KUBE_API_LIMITS} from './limits.js'
import type {ListOptions} from './list-options.js'
import type {HubChange} from './pod-hub.js'
import {podMatches, type PodFilter} from './pods.js'
import type {ApiContext, ApiRequest} from './request.js'
import {watchStart} from './resource-version.js'
import {ApiError, failure} from './status.js'
import {MAX_PENDING_BYTES} from './streams.js'
import {watchEventFor} from './watch-events.js'

export const tooManyStreams = (): ApiError => new ApiError(failure('TooManyRequests', `too many watches and log reads open (at most ${KUBE_API_LIMITS.maxStreams}); try again later`))

/** The annotation on the bookmark that ends a watch's initial events (sendInitialEvents). */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end'
/** The API server's watch cache sends a bookmark about this often. */
export const BOOKMARK_EVERY_MS = 60_000
/** …and this long before a watch's time is up. */
export const BOOKMARK_BEFORE_END_MS = 2_000

export function byNamespaceName(a: Pod, b: Pod): number {
  const ka = `${a.metadata?.namespace ?? ''}/${a.metadata?.name ?? ''}`
  const kb = `${b.metadata?.namespace ?? ''}/${b.metadata?.name ?? ''}`
  return ka < kb ? -1 : ka > kb ? 1 : 0
}

/**
 * How long a watch runs, as the API server times it: timeoutSeconds absent or 0 the longest a
 * watch runs here, a negative one not at all (its timer has fired already), at most the longest.
 */
export function watchSeconds(timeoutSeconds: number | undefined): number {
  if (timeoutSeconds === undefined || timeoutSeconds === 0) return KUBE_API_LIMITS.maxWatchSeconds
  return Math.max(0, Math.min(timeoutSeconds, KUBE_API_LIMITS.maxWatchSeconds))
}

/** A bookmark's object: a Pod with nothing but the version (and, ending initial events, the annotation). */
export function bookmarkPod(resourceVersion: string, initialEventsEnd: boolean): Pod {
  return {apiVersion: 'v1', kind: 'Pod', metadata: {resourceVersion, ...(initialEventsEnd ? {annotations: {[INITIAL_EVENTS_END]: 'true'}} : {})}}
}

/** When the bookmarks of a watch that ends after `durationMs` fall, in ms from its start. */
export function bookmarkTimes(durationMs: number): number[] {
  const times: number[] = []
  const last = durationMs - BOOKMARK_BEFORE_END_MS
  for (let t = BOOKMARK_EVERY_MS; t < last; t += BOOKMARK_EVERY_MS) times.push(t)
  if (last > 0) times.push(last)
  return times
}

/** How a watch's objects look as the client asked for them (object, or Table: a bookmark is one without rows). */
export interface WatchRender {
  pod(pod: Pod, rv: string): unknown
  bookmark(pod: Pod, rv: string): unknown
}

export async function streamPodWatch(ctx: ApiContext, filter: PodFilter, opts: ListOptions, r: ApiRequest, render: WatchRender): Promise<void> {
  const podObject = render.pod
  const {hub, streams} = ctx
  const {res} = r
  // timeoutSeconds 0 or absent: the longest a watch may run here.
  const seconds = watchSeconds(opts.timeoutSeconds)
  await hub.refresh()
  const start = watchStart(opts, hub.versions())
  const durationMs = seconds * 1000
  const slot = streams.acquire(res, {maxMs: durationMs, idleMs: KUBE_API_LIMITS.watchIdleSeconds * 1000})
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
  const bookmark = (initialEventsEnd: boolean): void => {
    const rv = hub.resourceVersion
    emit('BOOKMARK', render.bookmark(bookmarkPod(rv, initialEventsEnd), rv))
  }
  let since = Number(hub.resourceVersion)
  const emitChanges = (changes: readonly HubChange[]): void => {
    for (const c of changes) {
      // A watch from a version newer than this node's gets only what comes after it.
      if (c.resourceVersion <= since) continue
      const e = watchEventFor(c, matches)
      if (e) emit(e.type, podObject(e.pod, String(c.resourceVersion)))
    }
  }
  // No await from here to subscribe: nothing can change in between.
  if (start.kind === 'expired') {
    emit('ERROR', start.status)
    res.end()
    return
  }
  if (start.kind === 'initial') {
    for (const p of hub.pods().filter(matches).sort(byNamespaceName)) emit('ADDED', podObject(p, p.metadata?.resourceVersion ?? hub.resourceVersion))
    if (start.endBookmark) bookmark(true)
  } else {
    since = start.version
    const missed = hub.changesSince(since)
    // watchStart checked the floor; the history cannot have moved since (no await).
    if (missed !== 'expired') emitChanges(missed)
  }
  const unsubscribe = hub.subscribe(emitChanges)
  const timers = opts.allowWatchBookmarks ? bookmarkTimes(durationMs).map((t) => setTimeout(() => bookmark(false), t)) : []
  await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), {once: true})))
  for (const t of timers) clearTimeout(t)
  unsubscribe()
  if (!res.destroyed) res.end()
}
