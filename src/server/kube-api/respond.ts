// Writing an answer of the read-only API: JSON (pretty when asked), or a v1 Status.
import type {ServerResponse} from 'node:http'
import {wantsPretty} from './negotiate.js'
import {parseQuery} from './query.js'
import type {KubeStatus} from './status.js'

export function sendJson(res: ServerResponse, code: number, body: unknown): void {
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

export function sendStatus(res: ServerResponse, status: KubeStatus): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  sendJson(res, status.code, status)
}
