// What the read-only API serves for a route it accepted (credential, host and method checked by
// handler.ts): discovery, pods (list, get, watch; object or Table), pod logs and events.
import type {Event, Pod} from '../../api/types.js'
import {apiGroupList, apiV1Resources, apiVersions, versionInfo} from './discovery.js'
import {eventList, eventMatches, EVENT_FIELDS, type EventFilter} from './events.js'
import {streamPodLog} from './pod-log.js'
import {byNamespaceName, streamPodWatch} from './pod-watch.js'
import {podList, podMatches, POD_FIELDS, type PodFilter} from './pods.js'
import {parseListOptions, type ListOptions} from './list-options.js'
import {checkGetVersion, listAt} from './resource-version.js'
import type {ApiContext, ApiRequest} from './request.js'
import type {ApiRoute} from './route.js'
import {parseFieldSelector, parseLabelSelector} from './selectors.js'
import {ApiError, failure, notFound} from './status.js'
import {servedMinor} from './served-version.js'
import {EVENT_COLUMNS, eventRow, POD_COLUMNS, podRow, table} from './table.js'
import {sendJson} from './respond.js'

export async function serveRoute(ctx: ApiContext, route: ApiRoute, r: ApiRequest): Promise<void> {
  switch (route.kind) {
    case 'version':
      return sendJson(r.res, 200, versionInfo(ctx.data.kubeNodeVersion, ctx.data.platform, servedMinor(r.req.headers['user-agent'])))
    case 'api':
      return sendJson(r.res, 200, apiVersions(r.req.headers.host ?? '127.0.0.1'))
    case 'apis':
      return sendJson(r.res, 200, apiGroupList())
    case 'apiV1':
      return sendJson(r.res, 200, apiV1Resources())
    case 'pods':
      return pods(ctx, route.namespace, route.name, r)
    case 'podLog':
      return streamPodLog(ctx, route.namespace, route.name, r)
    case 'events':
      return events(ctx, route.namespace, route.name, r)
    default:
      throw new ApiError(failure('NotFound', 'the server could not find the requested resource'))
  }
}

function podFilter(namespace: string | undefined, name: string | undefined, o: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>): PodFilter {
  return {namespace, name, labels: parseLabelSelector(o.labelSelector), fields: parseFieldSelector(o.fieldSelector, POD_FIELDS)}
}

function podObject(ctx: ApiContext, pod: Pod, r: ApiRequest, rv: string): unknown {
  return r.table ? table(POD_COLUMNS, [podRow(pod, ctx.now(), r.include)], rv) : pod
}

async function pods(ctx: ApiContext, namespace: string | undefined, name: string | undefined, r: ApiRequest): Promise<void> {
  const {hub, now} = ctx
  // A named GET is a get, as on the API server: list and watch parameters do not apply to it.
  if (name !== undefined) {
    await hub.refresh()
    checkGetVersion(r.query.get('resourceVersion'), hub.versions().current)
    const pod = hub.pods().find((p) => podMatches({namespace, name, labels: [], fields: []}, p))
    if (!pod) throw notFound('pods', name)
    return sendJson(r.res, 200, podObject(ctx, pod, r, pod.metadata?.resourceVersion ?? hub.resourceVersion))
  }
  const opts = parseListOptions(r.query)
  const filter = podFilter(namespace, undefined, opts)
  if (opts.watch) return streamPodWatch(ctx, filter, opts, r, {pod: (pod, rv) => podObject(ctx, pod, r, rv), bookmark: (pod, rv) => (r.table ? table(POD_COLUMNS, [], rv) : pod)})
  await hub.refresh()
  const at = listAt(opts, hub.versions())
  const rv = at.kind === 'at' ? String(at.version) : hub.resourceVersion
  const items = (at.kind === 'at' ? hub.podsAt(at.version) : hub.pods()).filter((p) => podMatches(filter, p)).sort(byNamespaceName)
  const t = now()
  return sendJson(r.res, 200, r.table ? table(POD_COLUMNS, items.map((p) => podRow(p, t, r.include)), rv) : podList(items, rv))
}

async function events(ctx: ApiContext, namespace: string | undefined, name: string | undefined, r: ApiRequest): Promise<void> {
  const {data, now} = ctx
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
