// Where a decoded object sits inside a manifest location, and how issues about it are named.
//
// Numbering: `document` is the 0-based index of the YAML document in the file, counting every
// `---`-separated document (empty ones too), so it matches what a person counts in an editor.
// An object inside a `List`/`PodList` keeps its List's document index and gets the field prefix
// `items[i].`, e.g. `pods.yaml, document 0, field items[2].spec.containers[0].image`.
import type {FieldIssue} from '../util/errors.js'
import {joinPath} from '../util/field-path.js'

export interface DocumentRef {
  location: string
  document: number
  /** Position inside the document's `items`, when the object came from a List or PodList. */
  item?: number
}

/** The field-path prefix of everything inside the object at `ref`. */
export function refPrefix(ref: DocumentRef): string {
  return ref.item === undefined ? '' : `items[${ref.item}]`
}

export function issueAt(ref: DocumentRef, field: string, message: string): FieldIssue {
  return {location: ref.location, document: ref.document, field: joinPath(refPrefix(ref), field), message}
}

/** `a.yaml, document 0` or `a.yaml, document 0, item 2`, for messages that point elsewhere. */
export function describeRef(ref: DocumentRef): string {
  const base = `${ref.location}, document ${ref.document}`
  return ref.item === undefined ? base : `${base}, item ${ref.item}`
}
