// The read-only Kubernetes API on watch's port: routes an API request to discovery, pods (list,
// get, watch; object or Table), pod logs or events, and answers everything else with a v1 Status.
// The decisions live in the pure modules beside this file; this one does the I/O.
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {Event, Pod} from '../../api/types.js'
import type {Logger} from '../../util/logger.js'
import {errorMessage} from '../../util/errors.js'
import {loopbackHost} from '../loopback.js'
import {apiGroupList, apiV1Resources, apiVersions, versionInfo} from './discovery.js'
import {eventList, eventMatches, EVENT_FIELDS, type EventFilter} from './events.js'
import {KUBE_API_LIMITS} from './limits.js'
import {includeObject, wantsPretty, wantsTable} from './negotiate.js'
import {PodHub} from './pod-hub.js'
import {streamPodLog} from './pod-log.js'
import {byNamespaceName, streamPodWatch} from './pod-watch.js'
import {podList, podMatches, POD_FIELDS, type PodFilter} from './pods.js'
import {parseQuery} from './query.js'
import {parseListOptions, type ListOptions} from './list-options.js'
import {checkGetVersion, listAt} from './resource-version.js'
import {subresourceRefusal, writeRefusal} from './refusals.js'
import type {ApiContext, ApiRequest} from './request.js'
import {parseRoute, type ApiRoute} from './route.js'
import {parseFieldSelector, parseLabelSelector} from './selectors.js'
import {ApiError, failure, notFound, type KubeStatus} from './status.js'
import {requireCredential} from './credential.js'
import {servedMinor} from './served-version.js'
import {Streams} from './streams.js'
import {EVENT_COLUMNS, eventRow, POD_COLUMNS, podRow, table} from './table.js'
import type {KubeApiData} from './types.js'

export interface KubeApiOptions {
  data: KubeApiData
  logger: Logger
  now: () => number
  /** When set, every API request is refused with this message (403): see CLI.md on --address. */
  refusal?: string | undefined
  /** Serve requests naming any Host (--allow-remote-api); otherwise only a loopback Host is served. */
  anyHost?: boolean | undefined
  /** The bearer token logs and events need (credential.ts); undefined: they are refused to everyone. */
  credential: string | undefined
}

export interface KubeApi {
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>
  close(): void
}

export function createKubeApi(opts: KubeApiOptions): KubeApi {
  const {data, logger, now} = opts
  const streams = new Streams(KUBE_API_LIMITS.maxStreams)
  const hub = new PodHub({
    load: () => data.pods(),
    now,
    pollMs: KUBE_API_LIMITS.podPollMs,
    historySize: KUBE_API_LIMITS.historySize,
    onError: (err) => logger.warn('Reading the pods for the API failed', {error: errorMessage(err)}),
  })
  const ctx: ApiContext = {data, hub, streams, now}

  async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    try {
      if (opts.refusal !== undefined) throw new ApiError(failure('Forbidden', opts.refusal))
      if (!opts.anyHost && !loopbackHost(req.headers.host)) {
        throw new ApiError(failure('Forbidden', 'kube-node serves its Kubernetes API to loopback host names only (localhost, 127.0.0.1, [::1]); start watch with --allow-remote-api to serve other names'))
      }
      const route = parseRoute(path)
      requireCredential(route, req.headers.authorization, opts.credential)
      const method = req.method ?? 'GET'
      if (route.kind === 'podSubresource') throw new ApiError(subresourceRefusal(route.subresource, route.name))
      if (route.kind === 'unknown') throw new ApiError(failure('NotFound', 'the server could not find the requested resource'))
      if (method !== 'GET' && method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD')
        throw new ApiError(writeRefusal(method))
      }
      const query = parseQuery(req.url ?? '')
      await serve(route, {req, res, query, table: wantsTable(req.headers.accept), include: includeObject(query)})
    } catch (err) {
      if (err instanceof ApiError) return sendStatus(res, err.status)
      logger.error('API request failed', {path, error: errorMessage(err)})
      if (!res.headersSent) sendStatus(res, failure('InternalError', `internal error: ${errorMessage(err)}`))
      else res.destroy()
    }
  }

  async function serve(route: ApiRoute, r: ApiRequest): Promise<void> {
    switch (route.kind) {
      case 'version':
        return sendJson(r.res, 200, versionInfo(data.kubeNodeVersion, data.platform, servedMinor(r.req.headers['user-agent'])))
      case 'api':
        return sendJson(r.res, 200, apiVersions(r.req.headers.host ?? '127.0.0.1'))
      case 'apis':
        return sendJson(r.res, 200, apiGroupList())
      case 'apiV1':
        return sendJson(r.res, 200, apiV1Resources())
      case 'pods':
        return pods(route.namespace, route.name, r)
      case 'podLog':
        return streamPodLog(ctx, route.namespace, route.name, r)
      case 'events':
        return events(route.namespace, route.name, r)
      default:
        throw new ApiError(failure('NotFound', 'the server could not find the requested resource'))
    }
  }

  function podFilter(namespace: string | undefined, name: string | undefined, o: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>): PodFilter {
    return {namespace, name, labels: parseLabelSelector(o.labelSelector), fields: parseFieldSelector(o.fieldSelector, POD_FIELDS)}
  }

  const podObject = (pod: Pod, r: ApiRequest, rv: string): unknown => (r.table ? table(POD_COLUMNS, [podRow(pod, now(), r.include)], rv) : pod)

  async function pods(namespace: string | undefined, name: string | undefined, r: ApiRequest): Promise<void> {
    // A named GET is a get, as on the API server: list and watch parameters do not apply to it.
    if (name !== undefined) {
      await hub.refresh()
      checkGetVersion(r.query.get('resourceVersion'), hub.versions().current)
      const pod = hub.pods().find((p) => podMatches({namespace, name, labels: [], fields: []}, p))
      if (!pod) throw notFound('pods', name)
      return sendJson(r.res, 200, podObject(pod, r, pod.metadata?.resourceVersion ?? hub.resourceVersion))
    }
    const opts = parseListOptions(r.query)
    const filter = podFilter(namespace, undefined, opts)
    if (opts.watch) return streamPodWatch(ctx, filter, opts, r, {pod: (pod, rv) => podObject(pod, r, rv), bookmark: (pod, rv) => (r.table ? table(POD_COLUMNS, [], rv) : pod)})
    await hub.refresh()
    const at = listAt(opts, hub.versions())
    const rv = at.kind === 'at' ? String(at.version) : hub.resourceVersion
    const items = (at.kind === 'at' ? hub.podsAt(at.version) : hub.pods()).filter((p) => podMatches(filter, p)).sort(byNamespaceName)
    const t = now()
    return sendJson(r.res, 200, r.table ? table(POD_COLUMNS, items.map((p) => podRow(p, t, r.include)), rv) : podList(items, rv))
  }

  async function events(namespace: string | undefined, name: string | undefined, r: ApiRequest): Promise<void> {
    const opts = name === undefined ? parseListOptions(r.query) : undefined
    if (opts?.watch) throw new ApiError(failure('MethodNotAllowed', 'watching events is not supported by kube-node\'s read-only API: list them again, or use `kube-node events --watch` on the node'))
    const filter: EventFilter = {namespace, name, labels: parseLabelSelector(opts?.labelSelector), fields: parseFieldSelector(opts?.fieldSelector, EVENT_FIELDS)}
    const items = (await data.events()).filter((e) => eventMatches(filter, e))
    if (name !== undefined) {
      const e = items[0]
      if (!e) throw notFound('events', name)
      return sendJson(r.res, 200, r.table ? table(EVENT_COLUMNS, [eventRow(e, now(), r.include)], '') : e)
    }
    const t = now()
    return sendJson(r.res, 200, r.table ? table(EVENT_COLUMNS, items.map((e: Event) => eventRow(e, t, r.include)), '') : eventList(items))
  }

  return {
    handle,
    close: () => {
      hub.stop()
      streams.closeAll()
    },
  }
}


function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const req = res.req
  const pretty = wantsPretty(prettyOf(req.url ?? ''), req.headers['user-agent'])
  const text = JSON.stringify(body, undefined, pretty ? 2 : undefined) + '\n'
  res.writeHead(code, {'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache, private'})
  res.end(res.req.method === 'HEAD' ? undefined : text)
}

/** The `pretty` parameter, read apart from the rest: a Status for a malformed query is sent with it too. */
function prettyOf(url: string): string | undefined {
  try {
    return parseQuery(url).get('pretty')
  } catch {
    return undefined
  }
}

function sendStatus(res: ServerResponse, status: KubeStatus): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  sendJson(res, status.code, status)
}
