// What a list's or a watch's resourceVersion asks for, decided as the API server decides it from
// its watch cache: "" and "0" the current state; a version with NotOlderThan (or no match) the
// current state unless the version is newer than any this node has handed out (504, "Too large
// resource version", and the client lists again); Exact the state at that version while the
// history reaches back to it, else 410 Expired. A watch from a version starts after it, or is
// Expired when the history no longer reaches back. Pure.
import type {ListOptions} from './list-options.js'
import {goQuote} from './query.js'
import {ApiError, badRequest, failure, type KubeStatus} from './status.js'

export type ListAt = {kind: 'current'} | {kind: 'at'; version: number}

/** Versions the hub can answer for: its current one, and the oldest its history reaches back to. */
export interface Versions {
  current: number
  floor: number
}

export function tooLarge(rv: number, current: number): ApiError {
  return new ApiError(
    failure('Timeout', `Too large resource version: ${rv}, current: ${current}`, {causes: [{reason: 'ResourceVersionTooLarge', message: 'Too large resource version'}], retryAfterSeconds: 1}),
  )
}

export function listAt(o: Pick<ListOptions, 'resourceVersion' | 'resourceVersionMatch'>, v: Versions): ListAt {
  if (o.resourceVersion === '' || o.resourceVersion === '0') return {kind: 'current'}
  const rv = Number(o.resourceVersion)
  if (rv > v.current) throw tooLarge(rv, v.current)
  if (o.resourceVersionMatch !== 'Exact' || rv === v.current) return {kind: 'current'}
  if (rv < v.floor) throw new ApiError(failure('Expired', 'The resourceVersion for the provided list is too old.'))
  return {kind: 'at', version: rv}
}

/** Refuses a resourceVersion that is no version this node could have handed out (a decimal number). */
export function checkResourceVersionText(resourceVersion: string): void {
  if (resourceVersion !== '' && !/^\d{1,16}$/.test(resourceVersion)) throw badRequest(`invalid resource version ${goQuote(resourceVersion)}: expected a resourceVersion from a list or watch`)
}

/**
 * A get's resourceVersion (GetOptions): "" and "0" the current object; a version is read as "not
 * older than", so one newer than any handed out is the same 504 as for a list.
 */
export function checkGetVersion(resourceVersion: string | undefined, current: number): void {
  if (resourceVersion === undefined || resourceVersion === '' || resourceVersion === '0') return
  checkResourceVersionText(resourceVersion)
  if (Number(resourceVersion) > current) throw tooLarge(Number(resourceVersion), current)
}

export type WatchStart =
  /** Send the current state as ADDED first (then, with bookmarks, the initial-events-end bookmark). */
  | {kind: 'initial'; endBookmark: boolean}
  /** Send the changes after this version. */
  | {kind: 'since'; version: number}
  /** The history no longer reaches back: the ERROR event the API server sends, then the end. */
  | {kind: 'expired'; status: KubeStatus}

export function watchStart(o: Pick<ListOptions, 'resourceVersion' | 'sendInitialEvents' | 'allowWatchBookmarks'>, v: Versions): WatchStart {
  const fromNow = o.resourceVersion === '' || o.resourceVersion === '0'
  const rv = fromNow ? v.current : Number(o.resourceVersion)
  if (o.sendInitialEvents === true) {
    if (rv > v.current) throw tooLarge(rv, v.current)
    return {kind: 'initial', endBookmark: o.allowWatchBookmarks}
  }
  if (rv < v.floor) return {kind: 'expired', status: failure('Expired', `too old resource version: ${rv} (${v.current})`)}
  return {kind: 'since', version: rv}
}
