// `watch`'s read-only HTTP endpoints, like the kubelet's read-only port (10255) and healthz port
// (10248): /healthz, /pods (a v1 PodList) and /metrics (Prometheus text). node:http only; a
// handler that throws answers 500 and never takes the server down.
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {errorMessage, ListenError} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import {isApiPath} from './kube-api/route.js'
import {isLoopback, loopbackHost} from './loopback.js'
import {limitSockets} from './socket-limit.js'

export {isLoopback} from './loopback.js'

export interface Health {
  ok: boolean
  reason?: string
}

export interface ServerHandlers {
  /** The body of /pods, sent as JSON. */
  pods: () => Promise<unknown> | unknown
  healthz: () => Health
  /** The body of /metrics, in the Prometheus text format. */
  metrics: () => Promise<string>
  /** The bodies of /metrics/probes and /metrics/resource (the kubelet's probe and resource metrics); absent: empty. */
  metricsProbes?: (() => Promise<string>) | undefined
  metricsResource?: (() => Promise<string>) | undefined
  /** The read-only Kubernetes API (kube-api/handler.ts): every path under /api, /apis, /version on the main port. */
  kubeApi?: ApiHandler | undefined
}

export interface ApiHandler {
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>
}

/** A port number; 0 disables that listener; 'ephemeral' binds any free port (for tests). */
export type PortOption = number | 'ephemeral'

export interface ServerOptions {
  address: string
  /** The main port: /healthz, /pods, /metrics. The kubelet's read-only port is 10255. */
  port: PortOption
  /** /healthz only. The kubelet's is 10248. */
  healthzPort: PortOption
  /** Where healthzPort listens (the kubelet's healthzBindAddress); default `address`. */
  healthzAddress?: string | undefined
  handlers: ServerHandlers
  logger: Logger
}

export interface RunningServer {
  close(): Promise<void>
  /** The bound ports; 0 for a disabled listener. */
  port: number
  healthzPort: number
}

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

type Route = (res: ServerResponse) => Promise<void>

// Bounds on what one client can make the daemon hold: these endpoints answer small GETs.
const SERVER_LIMITS = {
  maxHeaderSize: 16 * 1024,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  // Node enforces both timeouts only when it checks its connections, every 30 s by default: a
  // client sending headers a byte at a time would hold its socket for up to 40 s, not 10.
  connectionsCheckingInterval: 1_000,
} as const
const KEEP_ALIVE_TIMEOUT_MS = 5_000
const MAX_HEADERS_COUNT = 100
const MAX_REQUESTS_PER_SOCKET = 1000
/** Open sockets per listener; at the bound a new one replaces the longest idle (socket-limit.ts). */
const MAX_CONNECTIONS = 128
const MAX_URL_LENGTH = 8 * 1024

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const {handlers, logger} = opts
  const healthz: Route = async (res) => {
    const h = handlers.healthz()
    if (h.ok) send(res, 200, 'text/plain; charset=utf-8', 'ok')
    else send(res, 500, 'text/plain; charset=utf-8', `healthz check failed: ${h.reason ?? 'unknown reason'}`)
  }
  const main: Record<string, Route> = {
    '/healthz': healthz,
    '/pods': async (res) => send(res, 200, 'application/json', JSON.stringify(await handlers.pods()) + '\n'),
    '/metrics': async (res) => send(res, 200, METRICS_CONTENT_TYPE, await handlers.metrics()),
    '/metrics/probes': async (res) => send(res, 200, METRICS_CONTENT_TYPE, (await handlers.metricsProbes?.()) ?? ''),
    '/metrics/resource': async (res) => send(res, 200, METRICS_CONTENT_TYPE, (await handlers.metricsResource?.()) ?? ''),
  }
  const servers: Server[] = []
  if (!isLoopback(opts.address) && (opts.port !== 0 || opts.healthzPort !== 0)) {
    logger.warn('Serving on a non-loopback address: /pods (full pod specs, literal env values) and /metrics have no authentication; anyone who can reach this address can read them', {address: opts.address})
  }
  try {
    const port = await listen(opts.address, opts.port, '--port', main, logger, servers, handlers.kubeApi)
    const healthzPort = await listen(opts.healthzAddress ?? opts.address, opts.healthzPort, '--healthz-port', {'/healthz': healthz}, logger, servers)
    return {port, healthzPort, close: () => closeAll(servers)}
  } catch (err) {
    await closeAll(servers)
    throw err
  }
}

async function listen(
  address: string,
  port: PortOption,
  flag: string,
  routes: Record<string, Route>,
  logger: Logger,
  servers: Server[],
  api?: ApiHandler,
): Promise<number> {
  if (port === 0) return 0
  const server = createServer(SERVER_LIMITS, (req, res) => {
    handle(req, res, routes, logger, isLoopback(address), api).catch((err: unknown) => {
      // Last line of defence: no request may take the daemon down.
      logger.error('HTTP request failed', {error: errorMessage(err)})
      res.destroy()
    })
  })
  limitSockets(server, MAX_CONNECTIONS)
  server.headersTimeout = SERVER_LIMITS.headersTimeout
  server.requestTimeout = SERVER_LIMITS.requestTimeout
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  server.maxHeadersCount = MAX_HEADERS_COUNT
  server.maxRequestsPerSocket = MAX_REQUESTS_PER_SOCKET
  // Malformed request lines, TLS bytes, oversized headers: a 400 and the connection is closed.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    logger.debug(4, 'HTTP client error', {code: err.code ?? '', error: errorMessage(err)})
    if (socket.writable && !socket.destroyed) {
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request'
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
    }
    socket.destroy()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new ListenError(`cannot listen on ${address}:${port} (${flag}): ${errorMessage(err)}`, {cause: err})))
    server.listen(port === 'ephemeral' ? 0 : port, address, () => resolve())
  })
  servers.push(server)
  server.on('error', (err) => logger.error('HTTP server error', {error: errorMessage(err)}))
  const bound = (server.address() as AddressInfo).port
  logger.info('Serving HTTP', {address, port: bound, paths: Object.keys(routes).join(',')})
  return bound
}

async function handle(req: IncomingMessage, res: ServerResponse, routes: Record<string, Route>, logger: Logger, loopbackOnly: boolean, api?: ApiHandler): Promise<void> {
  // A body is never read: drop it as it comes instead of buffering it.
  req.resume()
  const path = requestPath(req.url)
  if (path === undefined) return send(res, 400, 'text/plain; charset=utf-8', 'bad request\n')
  logger.debug(5, 'HTTP request', {method: req.method ?? '', path})
  const route = Object.hasOwn(routes, path) ? routes[path] : undefined
  if (!route && api && isApiPath(path)) return api.handle(req, res, path)
  if (!route) return send(res, 404, 'text/plain; charset=utf-8', '404 page not found\n')
  // On a loopback listener only a loopback name is genuine; every other Host is a page of some web
  // site (DNS rebinding) reading pod specs and metrics through a browser. /healthz tells nothing.
  if (loopbackOnly && path !== '/healthz' && !loopbackHost(req.headers.host)) {
    return send(res, 403, 'text/plain; charset=utf-8', 'forbidden: on a loopback address kube-node answers loopback host names only (localhost, 127.0.0.1, [::1])\n')
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD')
    return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n')
  }
  try {
    await route(res)
  } catch (err) {
    logger.error('HTTP handler failed', {path, error: errorMessage(err)})
    if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `internal error: ${errorMessage(err)}\n`)
    else res.destroy()
  }
}

/**
 * The path of an origin-form request target (`/pods?x=1` → `/pods`), or undefined for anything
 * else (`*`, `http://host/…`, `//`, over-long): routes are exact paths, nothing is decoded.
 */
export function requestPath(url: string | undefined): string | undefined {
  if (url === undefined || !url.startsWith('/') || url.startsWith('//') || url.length > MAX_URL_LENGTH) return undefined
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, {'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body)})
  res.end(res.req.method === 'HEAD' ? undefined : body)
}

function closeAll(servers: Server[]): Promise<void> {
  return Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.close(() => resolve())
          // Idle keep-alive connections would hold close() open.
          s.closeAllConnections()
        }),
    ),
  ).then(() => undefined)
}
