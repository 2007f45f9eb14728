// Every host path kube-node builds from input (a manifest's uid, names and namespace, the node
// name, a runtime label, a log path the runtime reports) is built and checked here: each
// segment must be one plain path segment, and the result must lie inside the directory it
// belongs to. A refusal names the field, so nothing is ever created, mounted or deleted outside
// kube-node's own roots, whatever a manifest or a foreign container's labels say. Pure.
import {posix} from 'node:path'
import {KubeNodeError} from './errors.js'

export class PathEscapeError extends KubeNodeError {
  readonly kind = 'PathEscape'
  constructor(
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${field}: ${detail}`)
  }
}

/** Why `segment` is not one plain path segment (a file name), or undefined. */
export function segmentError(segment: string): string | undefined {
  if (segment === '') return 'must not be empty'
  if (segment === '.' || segment === '..') return `must not be "${segment}"`
  if (segment.includes('/')) return "must not contain '/'"
  if (segment.includes('\0')) return 'must not contain a NUL character'
  if (Buffer.byteLength(segment) > 255) return 'must be no more than 255 bytes (one file name)'
  return undefined
}

/** True when `path` is `root` itself or lies below it (both normalized, no symlinks resolved). */
export function isInside(root: string, path: string): boolean {
  const r = posix.normalize(root).replace(/\/+$/, '') || '/'
  const p = posix.normalize(path)
  return p === r || p.startsWith(r === '/' ? '/' : `${r}/`)
}

/**
 * For a path someone else reported (the runtime's log_path): inside `root` as written, with no
 * '..' segment at all, so nothing that normalizing would hide is ever followed.
 */
export function isPlainlyInside(root: string, path: string): boolean {
  return isInside(root, path) && !path.split('/').includes('..')
}

/**
 * `root/seg1/seg2/…`, each segment checked with segmentError and the result proven to lie
 * strictly below `root`. `field` names where the segments came from, for the error.
 */
export function joinInside(root: string, field: string, ...segments: string[]): string {
  if (!posix.isAbsolute(root)) throw new PathEscapeError(field, `root ${JSON.stringify(root)} is not an absolute path`)
  for (const s of segments) {
    const err = segmentError(s)
    if (err) throw new PathEscapeError(field, `${JSON.stringify(s.slice(0, 100))} ${err}`)
  }
  const path = posix.join(root, ...segments)
  if (segments.length === 0 || path === posix.normalize(root) || !isInside(root, path)) {
    throw new PathEscapeError(field, `${JSON.stringify(path)} is not inside ${root}`)
  }
  return path
}

/** `path` unchanged when it lies strictly below `root`; PathEscapeError naming `field` otherwise. */
export function checkInside(root: string, path: string, field: string): string {
  const normal = posix.normalize(path)
  if (!posix.isAbsolute(path) || normal === posix.normalize(root).replace(/\/+$/, '') || !isInside(root, path)) {
    throw new PathEscapeError(field, `${JSON.stringify(path.slice(0, 200))} is not inside ${root}`)
  }
  return normal
}
