// kubectl's flags for choosing pods (-n, -A, -l, --field-selector), shared by every command that
// reads or acts on pods, and what they mean together. A selector is parsed while the command
// line is read, so a malformed one stops the command before it asks the runtime (exit 2).
import {Flags} from '@oclif/core'
import {InvalidInputError} from '../util/errors.js'
import {parsePodRef, type PodQuery, type PodRef} from '../services/query/pod-query.js'
import {POD_FIELDS, parseFieldSelector, parseLabelSelector} from '../services/query/selectors.js'

export const namespaceFlags = {
  namespace: Flags.string({char: 'n', summary: 'Only pods of this namespace (default: every namespace).'}),
  'all-namespaces': Flags.boolean({char: 'A', summary: 'Pods of every namespace, with a NAMESPACE column.'}),
}

export const selectorFlags = {
  selector: Flags.string({char: 'l', summary: "Label selector, kubectl's syntax: app=web, tier in (a,b), !canary."}),
  'field-selector': Flags.string({summary: 'Field selector: status.phase=Running, metadata.namespace!=kube-system, …'}),
}

export interface PodFlagValues {
  namespace?: string | undefined
  'all-namespaces'?: boolean | undefined
  selector?: string | undefined
  'field-selector'?: string | undefined
}

/** The pods -n/-A and the selectors choose; -n and -A together are a contradiction, as in kubectl. */
export function podQuery(f: PodFlagValues): PodQuery {
  if (f.namespace !== undefined && f['all-namespaces']) throw new InvalidInputError('-n/--namespace and -A/--all-namespaces cannot be used together')
  if (f.namespace !== undefined && f.namespace.trim() === '') throw new InvalidInputError('-n/--namespace: a namespace name is needed')
  return {
    namespace: f['all-namespaces'] ? undefined : f.namespace,
    labels: f.selector === undefined ? undefined : parseLabelSelector(f.selector),
    fields: f['field-selector'] === undefined ? undefined : parseFieldSelector(f['field-selector'], POD_FIELDS),
  }
}

/** Pod names as given (`web`, `ns/web`, `pod/web`), each read with -n. */
export function podRefs(names: readonly string[], f: PodFlagValues): PodRef[] {
  const q = podQuery(f)
  if (names.length > 0 && (f.selector !== undefined || f['field-selector'] !== undefined)) {
    throw new InvalidInputError('a pod name cannot be given together with -l/--selector or --field-selector')
  }
  return names.map((n) => parsePodRef(n, q.namespace))
}
