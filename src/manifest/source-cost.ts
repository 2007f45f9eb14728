// What one source (a directory, a URL) has spent of its limits: the double-quoted characters and
// the objects of the manifests it holds. Files are charged in the order they are read; a file
// that would pass a limit is refused whole, and what came before it stays. Pure.
import {MAX_SOURCE_DOUBLE_QUOTED, MAX_SOURCE_OBJECTS} from './limits.js'

export interface SourceCost {
  doubleQuoted: number
  objects: number
}

export const NO_COST: SourceCost = Object.freeze({doubleQuoted: 0, objects: 0})

export function addCost(a: SourceCost, b: SourceCost): SourceCost {
  return {doubleQuoted: a.doubleQuoted + b.doubleQuoted, objects: a.objects + b.objects}
}

/** Why a location with `more` double-quoted characters does not fit beside `spent`, if it does not. */
export function doubleQuotedOver(spent: SourceCost, more: number): string | undefined {
  if (spent.doubleQuoted + more <= MAX_SOURCE_DOUBLE_QUOTED) return undefined
  return `not decoded: with it, the manifests of its directory would hold more than ${MAX_SOURCE_DOUBLE_QUOTED / 1024 / 1024} MiB of double-quoted strings in all (the limit per directory); write large text as a block scalar (|) or in single quotes`
}

/** Why a location of `more` objects does not fit beside `spent`, if it does not. */
export function objectsOver(spent: SourceCost, more: number): string | undefined {
  if (spent.objects + more <= MAX_SOURCE_OBJECTS) return undefined
  return `not decoded: with its ${more} object${more === 1 ? '' : 's'}, the manifests of its directory would hold more than ${MAX_SOURCE_OBJECTS} objects in all (the limit per directory)`
}
