// The ListOptions of a list or watch request, read and checked as the API server reads and checks
// them (metainternalversion: the url.Values conversion, SetListOptionsDefaults with WatchList on,
// ValidateListOptions), so a client's mistake is answered with the same Status. What kube-node
// does not do is ignored where the API server may ignore it too: `limit` (a server may return
// every item, without a continue token) and `timeoutSeconds` on a list. Pure.
import {boolParam, goQuote, int64Param, optionalBoolParam, type Query} from './query.js'
import {checkResourceVersionText} from './resource-version.js'
import {ApiError, badRequest, failure, type StatusCause} from './status.js'

export type ResourceVersionMatch = '' | 'Exact' | 'NotOlderThan'

export interface ListOptions {
  watch: boolean
  /** '' when not given. */
  resourceVersion: string
  resourceVersionMatch: ResourceVersionMatch
  allowWatchBookmarks: boolean
  /** After the API server's defaulting: true for a watch from "now" that named no match. */
  sendInitialEvents: boolean | undefined
  timeoutSeconds: number | undefined
  labelSelector: string | undefined
  fieldSelector: string | undefined
}

interface FieldError {
  field: string
  type: 'Forbidden' | 'Unsupported value'
  /** The error's body after the field, as field.Error prints it. */
  body: string
}

const forbidden = (field: string, detail: string): FieldError => ({field, type: 'Forbidden', body: `Forbidden: ${detail}`})

function notSupported(field: string, value: string, supported: readonly string[]): FieldError {
  return {field, type: 'Unsupported value', body: `Unsupported value: ${goQuote(value)}: supported values: ${supported.map(goQuote).join(', ')}`}
}

/** The API server's 422 for ListOptions that fail validation. */
export function invalidListOptions(errs: readonly FieldError[]): ApiError {
  const texts = errs.map((e) => `${e.field}: ${e.body}`)
  const aggregate = texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`
  const causes: StatusCause[] = errs.map((e) => ({reason: e.type === 'Forbidden' ? 'FieldValueForbidden' : 'FieldValueNotSupported', message: e.body, field: e.field}))
  return new ApiError(failure('Invalid', `ListOptions.meta.k8s.io "" is invalid: ${aggregate}`, {group: 'meta.k8s.io', kind: 'ListOptions', causes}))
}

export function validateListOptions(o: ListOptions, cont: string): FieldError[] {
  const errs: FieldError[] = []
  const match = o.resourceVersionMatch
  if (o.watch) {
    if (o.sendInitialEvents !== undefined && match !== 'NotOlderThan') errs.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'))
    if (match !== '') {
      if (o.sendInitialEvents === undefined) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'))
      if (match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']))
      if (cont !== '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'))
    }
    return errs
  }
  if (match !== '') {
    if (o.resourceVersion === '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'))
    if (cont !== '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'))
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']))
    if (match === 'Exact' && o.resourceVersion === '0') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'))
  }
  if (o.sendInitialEvents !== undefined) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'))
  return errs
}

/** The ListOptions of a collection request; throws ApiError (400 unreadable, 422 invalid). */
export function parseListOptions(q: Query): ListOptions {
  const watch = boolParam(q, 'watch')
  const resourceVersion = q.get('resourceVersion') ?? ''
  let resourceVersionMatch = (q.get('resourceVersionMatch') ?? '') as ResourceVersionMatch
  let sendInitialEvents = optionalBoolParam(q, 'sendInitialEvents')
  const timeoutSeconds = int64Param(q, 'timeoutSeconds')
  // Read for its errors only: every list is one page (see the file's comment).
  int64Param(q, 'limit')
  const cont = q.get('continue') ?? ''
  // SetListOptionsDefaults: a watch from "now" is a watch-list that sends the current state first.
  if (watch && sendInitialEvents === undefined && resourceVersionMatch === '' && (resourceVersion === '' || resourceVersion === '0')) {
    sendInitialEvents = true
    resourceVersionMatch = 'NotOlderThan'
  }
  const opts: ListOptions = {
    watch,
    resourceVersion,
    resourceVersionMatch,
    allowWatchBookmarks: boolParam(q, 'allowWatchBookmarks'),
    sendInitialEvents,
    timeoutSeconds,
    labelSelector: q.get('labelSelector'),
    fieldSelector: q.get('fieldSelector'),
  }
  const errs = validateListOptions(opts, cont)
  if (errs.length > 0) throw invalidListOptions(errs)
  // kube-node hands out no continue tokens (every list is whole), so any token is not its own.
  if (cont !== '') throw badRequest(`invalid continue token: kube-node returns every item in one list and hands out no continue tokens`)
  checkResourceVersionText(resourceVersion)
  return opts
}
