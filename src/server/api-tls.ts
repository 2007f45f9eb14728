// The Kubernetes API over TLS, on a port of its own beside watch's plain one: the address that
// `kube-node kubeconfig` prints. kubectl sends its bearer token only to an https:// server
// (client-go drops credentials over plain http), and only after the server proved it holds the
// key of the certificate the kubeconfig names, so a local user who listens on a port kubectl once
// used never receives the token. Same API and the same credential rule as on the plain port.
import {createServer, type Server} from 'node:https'
import type {AddressInfo} from 'node:net'
import {errorMessage, ListenError} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import {isApiPath} from './kube-api/route.js'
import {requestPath, type ApiHandler} from './server.js'
import type {SelfSignedCertificate} from './self-signed-cert.js'

export interface ApiTlsOptions {
  address: string
  certificate: SelfSignedCertificate
  api: ApiHandler
  logger: Logger
}

export interface RunningApiTls {
  /** The bound port, chosen by the system at every start. */
  port: number
  close(): Promise<void>
}

// The bounds of the plain port (server.ts): small GETs, a few connections.
const LIMITS = {maxHeaderSize: 16 * 1024, headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000} as const
const KEEP_ALIVE_TIMEOUT_MS = 5_000
const MAX_HEADERS_COUNT = 100
const MAX_CONNECTIONS = 128
/** A TLS handshake not finished in this time is dropped (a client that opens and waits). */
const HANDSHAKE_TIMEOUT_MS = 10_000

export async function startApiTls(opts: ApiTlsOptions): Promise<RunningApiTls> {
  const {api, logger} = opts
  const server: Server = createServer(
    {...LIMITS, key: opts.certificate.keyPem, cert: opts.certificate.certPem, handshakeTimeout: HANDSHAKE_TIMEOUT_MS, minVersion: 'TLSv1.2'},
    (req, res) => {
      // A body is never read: drop it as it comes.
      req.resume()
      const path = requestPath(req.url)
      const plain = (code: number, text: string): void => {
        res.writeHead(code, {'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text)})
        res.end(text)
      }
      if (path === undefined) return plain(400, 'bad request\n')
      if (!isApiPath(path)) return plain(404, '404 page not found\n')
      api.handle(req, res, path).catch((err: unknown) => {
        logger.error('HTTPS request failed', {error: errorMessage(err)})
        res.destroy()
      })
    },
  )
  server.maxConnections = MAX_CONNECTIONS
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  server.maxHeadersCount = MAX_HEADERS_COUNT
  server.on('tlsClientError', (err) => logger.debug(4, 'TLS client error', {error: errorMessage(err)}))
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new ListenError(`cannot listen on ${opts.address} for the API over TLS: ${errorMessage(err)}`, {cause: err})))
    server.listen(0, opts.address, () => resolve())
  })
  server.on('error', (err) => logger.error('HTTPS server error', {error: errorMessage(err)}))
  const port = (server.address() as AddressInfo).port
  logger.info('Serving the Kubernetes API over TLS', {address: opts.address, port})
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
