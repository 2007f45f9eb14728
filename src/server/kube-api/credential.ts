// Which API reads need the credential that `kube-node kubeconfig` prints, and the check of a
// request's bearer token. The TCP port is open to every local user and to hostNetwork pods, so it
// serves without a credential only what the kubelet's read-only port serves (discovery and the
// pods, the same objects as /pods); what a local user cannot read on disk (container logs, 0640
// root; events, under the 0750 root dir) needs it. Writes and exec-like subresources are refused
// to everyone whatever they send.
import {createHash, timingSafeEqual} from 'node:crypto'
import type {ApiRoute} from './route.js'
import {ApiError, failure} from './status.js'

/** Routes whose answer a local user could not read on disk. */
export function needsCredential(route: ApiRoute): boolean {
  return route.kind === 'podLog' || route.kind === 'events'
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest()

/**
 * True when `authorization` is `Bearer <token>` for this token. Both sides are hashed first, so
 * the comparison takes the same time whatever the length or the first differing byte.
 */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer +(\S+) *$/i.exec(authorization ?? '')
  const offered = m?.[1] ?? ''
  return timingSafeEqual(digest(offered), digest(token)) && offered !== '' && token !== ''
}

/** Throws the 401 Status the API server answers to a missing or wrong credential. */
export function requireCredential(route: ApiRoute, authorization: string | undefined, token: string | undefined): void {
  if (!needsCredential(route)) return
  if (token !== undefined && bearerMatches(authorization, token)) return
  throw new ApiError(
    failure('Unauthorized', 'Unauthorized: logs and events need the credential that `kube-node kubeconfig` prints (run it as root and use that kubeconfig)'),
  )
}
