// gRPC handler (kubelet pkg/probe/grpc): grpc.health.v1.Health/Check over plaintext HTTP/2 to the
// pod IP; SERVING is success. Every way it can go wrong is a failure, as in the kubelet.
import * as http2 from 'node:http2'
import {errorMessage} from '../util/errors.js'
import type {GRPCAction} from './actions.js'
import {decodeHealthCheckResponse, encodeHealthCheckRequest, GRPC_CODES, HEALTH_CHECK_PATH, SERVING_STATUS} from './grpc-wire.js'
import {DEFAULT_USER_AGENT, joinHostPort, seconds, type HandlerOutcome, type HandlerTarget} from './target.js'

/** A health response is a few bytes; anything much larger is not one. */
const MAX_RESPONSE_BYTES = 64 * 1024

const fail = (output: string): HandlerOutcome => ({result: 'Failure', output})

export async function runGrpc(action: GRPCAction, target: HandlerTarget, timeoutMs: number): Promise<HandlerOutcome> {
  const addr = joinHostPort(target.podIP, action.port)
  return new Promise((resolve) => {
    let session: http2.ClientHttp2Session
    try {
      session = http2.connect(`http://${addr}`)
    } catch (err) {
      return resolve({result: 'Error', output: `cannot connect to ${addr}: ${errorMessage(err)}`})
    }
    let settled = false
    let connected = false
    const finish = (outcome: HandlerOutcome): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      session.destroy()
      resolve(outcome)
    }
    const timer = setTimeout(() => {
      finish(fail(connected
        ? `timeout: health rpc did not complete within ${seconds(timeoutMs)}`
        : `timeout: failed to connect service "${addr}" within ${seconds(timeoutMs)}`))
    }, timeoutMs)
    session.once('connect', () => (connected = true))
    const broken = (err: Error): void =>
      finish(fail(connected ? `rpc error: ${err.message}` : `failed to connect service "${addr}": ${err.message}`))
    session.on('error', broken)
    session.once('close', () => finish(fail('rpc error: connection closed before a response')))

    const stream = session.request({
      ':method': 'POST',
      ':path': HEALTH_CHECK_PATH,
      'content-type': 'application/grpc',
      te: 'trailers',
      'user-agent': DEFAULT_USER_AGENT,
    })
    let headers: http2.IncomingHttpHeaders | undefined
    let trailers: http2.IncomingHttpHeaders = {}
    const chunks: Buffer[] = []
    let size = 0
    stream.on('response', (h) => (headers = h))
    stream.on('trailers', (t) => (trailers = t))
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_RESPONSE_BYTES) finish(fail('rpc error: response too large for a health check'))
      else chunks.push(chunk)
    })
    stream.on('error', broken)
    stream.once('close', () => finish(interpret(headers, trailers, Buffer.concat(chunks), stream.rstCode)))
    stream.end(encodeHealthCheckRequest(action.service ?? ''))
  })
}

function interpret(headers: http2.IncomingHttpHeaders | undefined, trailers: http2.IncomingHttpHeaders, body: Buffer, rst: number): HandlerOutcome {
  if (headers === undefined) return fail(`rpc error: stream closed without a response (HTTP/2 code ${rst})`)
  const httpStatus = Number(headers[':status'])
  if (httpStatus !== 200) return fail(`rpc error: code = Unknown desc = unexpected HTTP status code ${String(httpStatus)}`)
  const contentType = headers['content-type'] ?? ''
  if (!contentType.startsWith('application/grpc')) return fail(`rpc error: code = Unknown desc = unexpected content-type "${contentType}"`)
  // A "trailers-only" answer carries grpc-status in the headers.
  const code = Number(trailers['grpc-status'] ?? headers['grpc-status'])
  if (!Number.isInteger(code)) return fail('rpc error: code = Internal desc = no grpc-status in the response')
  const message = decodeMessage(trailers['grpc-message'] ?? headers['grpc-message'])
  if (code === 12) return fail(`this server does not implement the grpc health protocol (grpc.health.v1.Health): ${message}`)
  if (code !== 0) return fail(`rpc error: code = ${GRPC_CODES[code] ?? `Code(${code})`} desc = ${message}`)
  let status: number
  try {
    status = decodeHealthCheckResponse(body)
  } catch (err) {
    return fail(`rpc error: code = Internal desc = ${errorMessage(err)}`)
  }
  if (status !== 1) return fail(`service unhealthy (responded with "${SERVING_STATUS[status] ?? String(status)}")`)
  return {result: 'Success', output: 'service healthy'}
}

function decodeMessage(v: string | string[] | undefined): string {
  const s = Array.isArray(v) ? v.join(',') : (v ?? '')
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}
