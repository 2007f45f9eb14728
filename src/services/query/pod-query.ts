// Which pods a command means, the way kubectl reads it: a name (`web`, `web-<node>`,
// `kube-system/web`, `pod/web`), `-n/--namespace`, `-A/--all-namespaces`, and selectors. Without
// `-n`, kube-node looks in every namespace (it has no current namespace), so a name found in
// several is an error that lists them rather than a silent pick. Pure.
import type {Pod} from '../../api/types.js'
import {InvalidInputError, NotFoundError} from '../../util/errors.js'
import {matchesFields, matchesLabels, podFields, type FieldRequirement, type LabelRequirement} from './selectors.js'

export interface PodQuery {
  /** `-n`: only this namespace. */
  namespace?: string | undefined
  /** `-l`: parsed label requirements (all must hold). */
  labels?: readonly LabelRequirement[] | undefined
  /** `--field-selector`: parsed field requirements. */
  fields?: readonly FieldRequirement[] | undefined
}

export interface PodRef {
  name: string
  namespace?: string | undefined
}

/** A pod's name and namespace as it is matched: `name` is the full static-pod name. */
export interface Candidate {
  name: string
  namespace: string
  /** The manifest's name (`web` for `web-<node>`). */
  manifestName: string
}

/** A name, or a name in a namespace, that several pods answer to. Exit code 1. */
export class AmbiguousPodError extends NotFoundError {
  constructor(
    readonly ref: string,
    readonly namespaces: readonly string[],
  ) {
    super(`pod "${ref}" exists in namespaces ${namespaces.join(', ')}; choose one with -n NAMESPACE or NAMESPACE/${ref}`)
  }
}

/** A selector that picks several pods where one is needed. Exit code 1. */
export class AmbiguousSelectionError extends NotFoundError {}

const RESOURCE_PREFIX = /^(pods?|po)\//

/**
 * Reads `pod/web`, `kube-system/web`, `pods/kube-system/web` or `web`; `namespace` is `-n`,
 * which must agree with a namespace in the name.
 */
export function parsePodRef(text: string, namespace?: string): PodRef {
  const rest = text.replace(RESOURCE_PREFIX, '')
  const parts = rest.split('/')
  if (parts.length > 2 || parts.some((p) => p === '')) throw new InvalidInputError(`"${text}" is not a pod name; use NAME, NAMESPACE/NAME or pod/NAME`)
  if (parts.length === 1) return {name: parts[0]!, namespace}
  const [ns, name] = parts as [string, string]
  if (namespace !== undefined && namespace !== ns) throw new InvalidInputError(`"${text}" names namespace "${ns}" but -n says "${namespace}"`)
  return {name, namespace: ns}
}

/** The pod a name (and -n) matches: exactly one, or NotFound/Ambiguous. */
export function resolveOne<T extends Candidate>(items: readonly T[], ref: PodRef): T {
  const found = items.filter((c) => (c.name === ref.name || c.manifestName === ref.name) && (ref.namespace === undefined || c.namespace === ref.namespace))
  if (found.length === 0) throw new NotFoundError(ref.namespace === undefined ? `pod "${ref.name}" not found` : `pod "${ref.name}" not found in namespace "${ref.namespace}"`)
  const namespaces = [...new Set(found.map((c) => c.namespace))].sort()
  if (namespaces.length > 1) throw new AmbiguousPodError(ref.name, namespaces)
  return found[0]!
}

/** Whether a pod (as every reader shows it) is one the query selects. */
export function podSelected(pod: Pod, q: PodQuery): boolean {
  if (q.namespace !== undefined && (pod.metadata?.namespace ?? 'default') !== q.namespace) return false
  if (q.labels?.length && !matchesLabels(q.labels, pod.metadata?.labels)) return false
  if (q.fields?.length && !matchesFields(q.fields, podFields(pod))) return false
  return true
}

/** Whether the query selects anything beyond a namespace (a selector). */
export function hasSelector(q: PodQuery): boolean {
  return Boolean(q.labels?.length || q.fields?.length)
}
