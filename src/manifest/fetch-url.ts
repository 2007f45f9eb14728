// GET of a manifest URL that never hands the configured headers (often credentials) to another
// origin: redirects are followed by hand, at most MAX_REDIRECTS, and only within the same
// scheme, host and port; a redirect elsewhere is refused (rather than followed without the
// headers, which would quietly read manifests from a server nobody configured).
import {redactUrl} from './redact-url.js'

export const MAX_REDIRECTS = 5

export type FetchFn = (url: string, init: RequestInit) => Promise<Response>

export interface GetInit {
  signal: AbortSignal
  headers: Array<[string, string]>
}

/** Only `http:` and `https:` URLs with a host are manifest URLs; the reason otherwise. */
export function manifestUrlError(url: string): string | undefined {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return 'is not a valid URL'
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `has scheme "${u.protocol.replace(/:$/, '')}"; only http and https are allowed`
  if (u.hostname === '') return 'has no host'
  return undefined
}

export async function getSameOrigin(doFetch: FetchFn, url: string, init: GetInit): Promise<Response> {
  let current = new URL(url)
  const headers = withUserinfo(current, init.headers)
  current.username = ''
  current.password = ''
  const origin = current.origin
  for (let hop = 0; ; hop++) {
    const res = await doFetch(current.href, {signal: init.signal, headers, redirect: 'manual'})
    if (res.status < 300 || res.status > 399 || res.status === 304) return res
    await res.body?.cancel().catch(() => {})
    const location = res.headers.get('location')
    if (!location) throw new Error(`GET returned HTTP ${res.status} without a Location header`)
    if (hop + 1 > MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`)
    let next: URL
    try {
      next = new URL(location, current)
    } catch {
      throw new Error(`GET returned HTTP ${res.status} with an invalid Location header`)
    }
    if (next.origin !== origin) {
      throw new Error(`redirected to another origin (${redactUrl(next.href)}); refused so that the request headers never leave ${redactUrl(origin)}`)
    }
    current = next
  }
}

/**
 * `http://user:pw@host/…` sends basic authentication, as Go's client (and so the kubelet) does;
 * fetch itself refuses such URLs. A configured Authorization header wins.
 */
function withUserinfo(url: URL, headers: Array<[string, string]>): Array<[string, string]> {
  if (url.username === '' && url.password === '') return headers
  if (headers.some(([k]) => k.toLowerCase() === 'authorization')) return headers
  const token = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')
  return [...headers, ['Authorization', `Basic ${token}`]]
}
