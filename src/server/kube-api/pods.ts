// Pods as the API serves them: the very objects `get pods -o json` shows (one truth), plus the
// metadata an API client relies on (resourceVersion, creationTimestamp), filtered by namespace,
// name and selectors. Pure.
import type {Pod} from '../../api/types.js'
import {matchesFields, matchesLabels, type FieldSelector, type LabelSelector} from './selectors.js'

/** The field selectors the API server accepts for pods (pkg/registry/core/pod/strategy.go). */
export const POD_FIELDS: ReadonlySet<string> = new Set([
  'metadata.name',
  'metadata.namespace',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.nominatedNodeName',
])

export function podFields(pod: Pod): Record<string, string> {
  return {
    'metadata.name': pod.metadata?.name ?? '',
    'metadata.namespace': pod.metadata?.namespace ?? '',
    'spec.nodeName': pod.spec?.nodeName ?? '',
    'spec.restartPolicy': pod.spec?.restartPolicy ?? '',
    'spec.schedulerName': pod.spec?.schedulerName ?? '',
    'spec.serviceAccountName': pod.spec?.serviceAccountName ?? '',
    'spec.hostNetwork': String(pod.spec?.hostNetwork ?? false),
    'status.phase': pod.status?.phase ?? '',
    'status.podIP': pod.status?.podIP ?? '',
    'status.nominatedNodeName': pod.status?.nominatedNodeName ?? '',
  }
}

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
