// Pods as the API serves them: the very objects `get pods -o json` shows (one truth), plus the
// metadata an API client relies on (resourceVersion, creationTimestamp), filtered by namespace,
// name and selectors. Pure.
import type {Pod} from '../../api/types.js'
import {matchesFields, matchesLabels, type FieldSelector, type LabelSelector} from './selectors.js'
import {POD_FIELDS as POD_FIELD_NAMES, podFields} from '../../util/pod-fields.js'

/** The field selectors the API server accepts for pods. */
export const POD_FIELDS: ReadonlySet<string> = new Set(POD_FIELD_NAMES)

export interface PodFilter {
  namespace?: string | undefined
  name?: string | undefined
  labels: LabelSelector
  fields: FieldSelector
}

export function podMatches(filter: PodFilter, pod: Pod): boolean {
  const m = pod.metadata
  if (filter.namespace !== undefined && m?.namespace !== filter.namespace) return false
  if (filter.name !== undefined && m?.name !== filter.name) return false
  return matchesLabels(filter.labels, m?.labels) && matchesFields(filter.fields, podFields(pod))
}

/**
 * The pod with the metadata an API object carries. A static pod has no API server to stamp its
 * creation: the time kube-node first started it (status.startTime) stands in, so AGE means
 * what it means on a cluster.
 */
export function apiPod(pod: Pod, resourceVersion: string): Pod {
  const creationTimestamp = pod.metadata?.creationTimestamp ?? pod.status?.startTime
  return {
    ...pod,
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {...pod.metadata, ...(creationTimestamp ? {creationTimestamp} : {}), resourceVersion},
  }
}

export function podList(items: Pod[], resourceVersion: string): unknown {
  return {kind: 'PodList', apiVersion: 'v1', metadata: {resourceVersion}, items}
}
