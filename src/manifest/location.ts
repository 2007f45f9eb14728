// What a manifest argument (`-f`, `watch DIR`, `--manifest-url`) names. Pure: whether a path is
// a file or a directory is decided when it is read.
import {InvalidInputError} from '../util/errors.js'
import type {PodSource} from '../api/types.js'

export type ManifestLocation =
  /** A filesystem path; `dir` only when written with a trailing '/', else decided on reading. */
  | {kind: 'file' | 'dir'; path: string; arg: string}
  | {kind: 'url'; url: string; arg: string}
  | {kind: 'stdin'; arg: '-'}

export function parseLocation(arg: string): ManifestLocation {
  if (arg === '-') return {kind: 'stdin', arg}
  if (arg.trim() === '') throw new InvalidInputError('a manifest location must not be empty')
  if (/^https?:\/\//i.test(arg)) {
    try {
      new URL(arg)
    } catch {
      throw new InvalidInputError(`"${arg}" is not a valid URL`)
    }
    return {kind: 'url', url: arg, arg}
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(arg)
  if (scheme) throw new InvalidInputError(`"${arg}": unsupported URL scheme "${scheme[1]}", expected http or https`)
  return {kind: arg.endsWith('/') ? 'dir' : 'file', path: arg, arg}
}

/** The pod source kind of a location: `file`, `http` or `stdin`. */
export function sourceKind(loc: ManifestLocation): PodSource['kind'] {
  return loc.kind === 'url' ? 'http' : loc.kind === 'stdin' ? 'stdin' : 'file'
}
