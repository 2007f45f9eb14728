// HTTP GET handler (kubelet pkg/probe/http): 200–399 is success. Redirects are followed on the
// same host (at most 10); a redirect to another host is not followed and counts as success with
// a warning, as the kubelet's probe.Warning. TLS certificates are not verified.
import * as http from 'node:http'
import * as https from 'node:https'
import {errorMessage} from '../util/errors.js'
import type {HTTPGetAction} from './actions.js'
import {DEFAULT_USER_AGENT, joinHostPort, limitOutput, MAX_OUTPUT_BYTES, resolvePort, seconds, type HandlerOutcome, type HandlerTarget} from './target.js'

const MAX_REDIRECTS = 10
const REDIRECTS = new Set([301, 302, 303, 307, 308])

interface Response {
  status: number
  location: string | undefined
  body: string
}

export async function runHttpGet(
  action: HTTPGetAction,
  target: HandlerTarget,
  timeoutMs: number,
  userAgent: string = DEFAULT_USER_AGENT,
  /** Gives up at once (a hook whose pod is being killed). */
  signal?: AbortSignal,
): Promise<HandlerOutcome> {
  const resolved = resolvePort(action.port, target.ports)
  if ('error' in resolved) return {result: 'Error', output: resolved.error}
  const scheme = (action.scheme ?? 'HTTP').toLowerCase()
  if (scheme !== 'http' && scheme !== 'https') return {result: 'Error', output: `unsupported scheme ${JSON.stringify(action.scheme)}`}
  const path = (action.path ?? '').startsWith('/') ? (action.path ?? '') : `/${action.path ?? ''}`
  let url: URL
  try {
    url = new URL(`${scheme}://${joinHostPort(action.host || target.podIP, resolved.port)}${path}`)
  } catch (err) {
    return {result: 'Error', output: `invalid probe URL: ${errorMessage(err)}`}
  }
  const headers = requestHeaders(action.httpHeaders ?? [], userAgent)

  // One deadline for the whole exchange, redirects and body included (Go's Client.Timeout).
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(), timeoutMs)
  const ended = signal ? AbortSignal.any([deadline.signal, signal]) : deadline.signal
  const firstHost = url.hostname
  try {
    for (let redirects = 0; ; redirects++) {
      let res: Response
      try {
        res = await get(url, headers, ended)
      } catch (err) {
        const why = signal?.aborted ? 'context canceled' : deadline.signal.aborted ? `context deadline exceeded (timeout ${seconds(timeoutMs)})` : errorMessage(err)
        return {result: 'Failure', output: `Get ${JSON.stringify(url.href)}: ${why}`}
      }
      if (REDIRECTS.has(res.status) && res.location !== undefined) {
        const next = new URL(res.location, url)
        if (next.hostname === firstHost) {
          if (redirects >= MAX_REDIRECTS) {
            return {result: 'Failure', output: `Get ${JSON.stringify(next.href)}: stopped after ${MAX_REDIRECTS} redirects`}
          }
          url = next
          continue
        }
      }
      return classify(res)
    }
  } finally {
    clearTimeout(timer)
  }
}

function classify(res: Response): HandlerOutcome {
  if (res.status >= 200 && res.status < 300) return {result: 'Success', output: res.body}
  if (res.status >= 300 && res.status < 400) {
    return {result: 'Success', output: `Probe terminated redirects, Response body: ${res.body}`, warning: true}
  }
  return {result: 'Failure', output: `HTTP probe failed with statuscode: ${res.status}`}
}

/** The probe's headers (repeats kept), then User-Agent and Accept unless the probe set them. */
function requestHeaders(list: readonly {name: string; value: string}[], userAgent: string): http.OutgoingHttpHeaders {
  const headers: Record<string, string[]> = {}
  for (const h of list) (headers[h.name.toLowerCase()] ??= []).push(h.value)
  headers['user-agent'] ??= [userAgent]
  headers['accept'] ??= ['*/*']
  const out: http.OutgoingHttpHeaders = {}
  for (const [k, v] of Object.entries(headers)) out[k] = v.length === 1 ? v[0] : v
  return out
}

function get(url: URL, headers: http.OutgoingHttpHeaders, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    const options: https.RequestOptions = {method: 'GET', headers, signal, agent: false}
    const req =
      url.protocol === 'https:'
        ? https.request(url, {...options, rejectUnauthorized: false})
        : http.request(url, options)
    req.on('error', reject)
    req.once('response', (res) => {
      const chunks: Buffer[] = []
      let size = 0
      const done = (): void => {
        const location = res.headers.location
        resolve({status: res.statusCode ?? 0, location, body: limitOutput(Buffer.concat(chunks).toString())})
        res.destroy()
      }
      res.on('data', (chunk: Buffer) => {
        if (size >= MAX_OUTPUT_BYTES) return
        chunks.push(chunk)
        size += chunk.length
        if (size >= MAX_OUTPUT_BYTES) done()
      })
      res.once('end', done)
      res.on('error', reject)
    })
    req.end()
  })
}
