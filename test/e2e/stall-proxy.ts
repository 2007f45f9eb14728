// A gRPC-aware proxy on a unix socket in front of the runtime's socket, for fault tests: every
// call (an HTTP/2 stream) is either passed through to the runtime or stalled — held without an
// answer until the client gives up (its deadline cancels the stream), so the runtime never sees
// it. A policy decides per call from the method path and how many calls of that method came
// before, e.g. "stall the first 2 RunPodSandbox calls".
import {connect, constants, createServer, type ClientHttp2Session, type Http2Session, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerHttp2Session} from 'node:http2'
import {connect as netConnect} from 'node:net'
import {rmSync} from 'node:fs'

/** `method` is the gRPC path, e.g. `/runtime.v1.RuntimeService/RunPodSandbox`; `n` counts from 0. */
export type StallPolicy = (method: string, n: number) => boolean

export interface ProxiedCall {
  method: string
  stalled: boolean
  /** A stalled call that the client gave up on (its deadline, or a cancel such as a kill's). */
  cancelled?: boolean
}

export interface StallProxy {
  /** `unix:///…`, for `--runtime-endpoint`. */
  endpoint: string
  /** Every call seen, in order. */
  calls: ProxiedCall[]
  setPolicy(policy: StallPolicy): void
  stallAll(): void
  passAll(): void
  close(): Promise<void>
}

/** The short name of a gRPC path: `/runtime.v1.RuntimeService/RunPodSandbox` → `RunPodSandbox`. */
export function callName(method: string): string {
  return method.slice(method.lastIndexOf('/') + 1)
}

/** Stalls the first `count` calls of each named method (short names), passes the rest. */
export function stallFirst(counts: Record<string, number>): StallPolicy {
  return (method, n) => n < (counts[callName(method)] ?? 0)
}

function withoutPseudo(h: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {}
  for (const [k, v] of Object.entries(h)) if (!k.startsWith(':') && v !== undefined) out[k] = v
  return out
}

export async function startStallProxy(opts: {socketPath: string; upstreamSocket: string}): Promise<StallProxy> {
  let policy: StallPolicy = () => false
  const calls: ProxiedCall[] = []
  const seen = new Map<string, number>()
  const sessions = new Set<ServerHttp2Session>()
  const upstreams = new Map<Http2Session, ClientHttp2Session>()

  const upstreamFor = (session: Http2Session): ClientHttp2Session => {
    let up = upstreams.get(session)
    if (up && !up.closed && !up.destroyed) return up
    up = connect('http://localhost', {createConnection: () => netConnect(opts.upstreamSocket)})
    upstreams.set(session, up)
    // The runtime went away: drop the client's connection too, so that it reconnects.
    const drop = (): void => {
      upstreams.delete(session)
      if (!session.destroyed) session.destroy()
    }
    up.on('error', drop)
    up.on('close', drop)
    return up
  }

  const server = createServer()
  server.on('session', (session) => {
    sessions.add(session)
    session.on('error', () => {})
    session.on('close', () => {
      sessions.delete(session)
      upstreams.get(session)?.close()
      upstreams.delete(session)
    })
  })
  server.on('stream', (stream, headers) => {
    stream.on('error', () => {})
    const method = String(headers[':path'] ?? '')
    const n = seen.get(method) ?? 0
    seen.set(method, n + 1)
    const stalled = policy(method, n)
    const call: ProxiedCall = {method, stalled}
    calls.push(call)
    if (stalled) {
      // Read and drop the request; never answer. The client's deadline or cancel resets the stream.
      stream.on('close', () => (call.cancelled = true))
      stream.resume()
      return
    }
    const session = stream.session
    if (!session) {
      stream.close(constants.NGHTTP2_INTERNAL_ERROR)
      return
    }
    let up
    try {
      up = upstreamFor(session).request({...withoutPseudo(headers), ':method': 'POST', ':path': method})
    } catch {
      stream.close(constants.NGHTTP2_REFUSED_STREAM)
      return
    }
    const upstream = up
    let trailers: OutgoingHttpHeaders = {}
    upstream.on('error', () => {
      if (!stream.closed) stream.close(constants.NGHTTP2_INTERNAL_ERROR)
    })
    upstream.on('response', (h, flags) => {
      if (stream.closed) return
      // A trailers-only answer (an error status) ends the stream with its headers.
      if (flags & constants.NGHTTP2_FLAG_END_STREAM) {
        stream.respond({...withoutPseudo(h), ':status': h[':status'] ?? 200}, {endStream: true})
        return
      }
      stream.respond({...withoutPseudo(h), ':status': h[':status'] ?? 200}, {waitForTrailers: true})
      upstream.pipe(stream)
    })
    upstream.on('trailers', (t) => {
      trailers = withoutPseudo(t)
    })
    stream.on('wantTrailers', () => stream.sendTrailers(trailers))
    // The client cancelled (deadline): cancel upstream too.
    stream.on('close', () => {
      if (!upstream.closed) upstream.close(constants.NGHTTP2_CANCEL)
    })
    stream.pipe(upstream)
  })

  rmSync(opts.socketPath, {force: true})
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.socketPath, () => resolve())
  })

  return {
    endpoint: `unix://${opts.socketPath}`,
    calls,
    setPolicy(p) {
      policy = p
      seen.clear()
    },
    stallAll() {
      policy = () => true
    },
    passAll() {
      policy = () => false
    },
    async close() {
      for (const s of sessions) s.destroy()
      for (const u of upstreams.values()) u.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      rmSync(opts.socketPath, {force: true})
    },
  }
}
