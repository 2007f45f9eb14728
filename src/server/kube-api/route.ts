// Which API request a path names: the Kubernetes REST layout kubectl builds its URLs from
// (`/api/v1/namespaces/{ns}/pods/{name}/log`). Segments are decoded one by one and checked as the
// API server checks them (a namespace is a DNS label, a name a DNS subdomain) before anything
// uses them. Pure.
import {badRequest} from './status.js'

export type ApiRoute =
  | {kind: 'version'}
  | {kind: 'api'}
  | {kind: 'apiV1'}
  | {kind: 'apis'}
  | {kind: 'pods'; namespace?: string; name?: string}
  | {kind: 'podLog'; namespace: string; name: string}
  | {kind: 'podSubresource'; namespace: string; name: string; subresource: string}
  | {kind: 'events'; namespace?: string; name?: string}
  | {kind: 'unknown'}

/** Paths the API owns: anything under them answers a Status, never the plain 404 page. */
export function isApiPath(path: string): boolean {
  return path === '/version' || path === '/api' || path === '/apis' || path.startsWith('/api/') || path.startsWith('/apis/') || path.startsWith('/version/')
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

export function isDnsLabel(s: string): boolean {
  return s.length <= 63 && DNS_LABEL.test(s)
}

export function isDnsSubdomain(s: string): boolean {
  return s.length <= 253 && DNS_SUBDOMAIN.test(s)
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw badRequest('malformed percent-encoding in the request path')
  }
}

function namespaceOf(s: string): string {
  if (!isDnsLabel(s)) throw badRequest('invalid namespace in the request path: a namespace is a DNS-1123 label (lower-case letters, digits and "-", at most 63 characters)')
  return s
}

function nameOf(s: string): string {
  if (!isDnsSubdomain(s)) throw badRequest('invalid name in the request path: a name is a DNS-1123 subdomain (lower-case letters, digits, "-" and ".", at most 253 characters)')
  return s
}

/** The route of an API path (see isApiPath); throws ApiError on an invalid segment. */
export function parseRoute(path: string): ApiRoute {
  if (path === '/version' || path === '/version/') return {kind: 'version'}
  if (path === '/api' || path === '/api/') return {kind: 'api'}
  if (path === '/apis' || path === '/apis/') return {kind: 'apis'}
  if (!path.startsWith('/api/v1')) return {kind: 'unknown'}
  const rest = path.slice('/api/v1'.length)
  if (rest === '' || rest === '/') return {kind: 'apiV1'}
  if (!rest.startsWith('/')) return {kind: 'unknown'}
  const seg = rest.slice(1).split('/').map(decode)
  if (seg.length > 6) return {kind: 'unknown'}
  // /pods, /events (every namespace)
  if (seg.length === 1 && seg[0] === 'pods') return {kind: 'pods'}
  if (seg.length === 1 && seg[0] === 'events') return {kind: 'events'}
  if (seg[0] !== 'namespaces' || seg.length < 3) return {kind: 'unknown'}
  const namespace = namespaceOf(seg[1]!)
  const [, , resource, name, sub] = seg
  if (resource === 'pods') {
    if (name === undefined) return {kind: 'pods', namespace}
    const podName = nameOf(name)
    if (sub === undefined) return seg.length === 4 ? {kind: 'pods', namespace, name: podName} : {kind: 'unknown'}
    if (sub === 'log' && seg.length === 5) return {kind: 'podLog', namespace, name: podName}
    return seg.length === 5 ? {kind: 'podSubresource', namespace, name: podName, subresource: sub} : {kind: 'unknown'}
  }
  if (resource === 'events' && seg.length <= 4) return name === undefined ? {kind: 'events', namespace} : {kind: 'events', namespace, name: nameOf(name)}
  return {kind: 'unknown'}
}
