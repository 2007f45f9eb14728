// The read-only Kubernetes API on watch's port: refuses what it must (remote host names, a
// missing credential, writes, subresources) with a v1 Status and hands the rest to serve-route.ts
// (discovery, pods, pod logs, events). The decisions live in the pure modules beside this file.
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {Logger} from '../../util/logger.js'
import {errorMessage} from '../../util/errors.js'
import {loopbackHost} from '../loopback.js'
import {KUBE_API_LIMITS} from './limits.js'
import {includeObject, wantsTable} from './negotiate.js'
import {PodHub} from './pod-hub.js'
import {parseQuery} from './query.js'
import {subresourceRefusal, writeRefusal} from './refusals.js'
import type {ApiContext} from './request.js'
import {parseRoute} from './route.js'
import {ApiError, failure} from './status.js'
import {requireCredential} from './credential.js'
import {Streams} from './streams.js'
import {TurnShare} from './turn-share.js'
import {sendStatus} from './respond.js'
import {serveRoute} from './serve-route.js'
import type {KubeApiData} from './types.js'

export interface KubeApiOptions {
  data: KubeApiData
  logger: Logger
  now: () => number
  /** Waits, on the clock of `now` (reads of the pods are spaced: pod-hub.ts). */
  sleep: (ms: number) => Promise<void>
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
    sleep: opts.sleep,
    minGapMs: KUBE_API_LIMITS.minReadGapMs,
    pollMs: KUBE_API_LIMITS.podPollMs,
    historySize: KUBE_API_LIMITS.historySize,
    onError: (err) => logger.warn('Reading the pods for the API failed', {error: errorMessage(err)}),
  })
  const ctx: ApiContext = {data, hub, streams, share: new TurnShare(), now}

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
      await serveRoute(ctx, route, {req, res, query, table: wantsTable(req.headers.accept), include: includeObject(query)})
    } catch (err) {
      if (err instanceof ApiError) return sendStatus(res, err.status)
      logger.error('API request failed', {path, error: errorMessage(err)})
      if (!res.headersSent) sendStatus(res, failure('InternalError', `internal error: ${errorMessage(err)}`))
      else res.destroy()
    }
  }

  return {
    handle,
    close: () => {
      hub.stop()
      streams.closeAll()
    },
  }
}
