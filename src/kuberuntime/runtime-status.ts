// Rebuilds kube-node's pods from CRI list results (the kubelet's GetPods/GetPodStatus grouping by
// the io.kubernetes.pod.uid label). Pure: the caller does the CRI calls and passes the results.
import type {Container, ContainerState, ContainerStatus, PodSandbox} from '../cri/api.js'
import {byCodeUnit} from '../util/compare.js'
import {
  CONTAINER_HASH_ANNOTATION,
  CONTAINER_NAME_LABEL,
  CONTAINER_RESTART_COUNT_ANNOTATION,
  CONTAINER_CONFIG_HASH_ANNOTATION,
  RESTART_COUNT_BASE_ANNOTATION,
  CONTAINER_TYPE_LABEL,
  HASH_VERSION_ANNOTATION,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  MANIFEST_NAME_LABEL,
  POD_NAME_LABEL,
  POD_NAMESPACE_LABEL,
  POD_TERMINATION_GRACE_PERIOD_ANNOTATION,
  POD_UID_LABEL,
  SANDBOX_HASH_ANNOTATION,
} from './labels.js'
import type {ContainerType, RuntimeContainer, RuntimeContainerState, RuntimePod, RuntimeSandbox} from './model.js'

export interface RuntimeListing {
  sandboxes: PodSandbox[]
  containers: Container[]
  /** ContainerStatus by container id, for the containers the caller asked about. */
  statuses: ReadonlyMap<string, ContainerStatus>
  /** Pod IP by sandbox id, when known. */
  sandboxIps: ReadonlyMap<string, string>
}

const NS_PER_MS = 1_000_000

// Fractional milliseconds: containers created within the same millisecond must still sort.
function nsToMs(ns: number): number {
  return ns > 0 ? ns / NS_PER_MS : 0
}

function containerState(s: ContainerState): RuntimeContainerState {
  switch (s) {
    case 'CONTAINER_CREATED':
      return 'created'
    case 'CONTAINER_RUNNING':
      return 'running'
    case 'CONTAINER_EXITED':
      return 'exited'
    default:
      return 'unknown'
  }
}

function containerType(value: string | undefined): ContainerType {
  return value === 'init' || value === 'sidecar' ? value : 'regular'
}

/** A non-negative decimal integer from an annotation, or undefined. */
function intAnnotation(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined
  return Number(value)
}

function isOurs(s: PodSandbox): boolean {
  return s.labels[MANAGED_BY_LABEL] === MANAGED_BY_VALUE && Boolean(s.labels[POD_UID_LABEL])
}

function toSandbox(s: PodSandbox, ip: string | undefined): RuntimeSandbox {
  const out: RuntimeSandbox = {
    id: s.id,
    state: s.state === 'SANDBOX_READY' ? 'ready' : 'notready',
    attempt: s.metadata.attempt,
    createdAt: nsToMs(s.createdAt),
    ip: ip ?? '',
    labels: {...s.labels},
    annotations: {...s.annotations},
  }
  const hash = s.annotations[SANDBOX_HASH_ANNOTATION]
  if (hash !== undefined) out.hash = hash
  const version = s.annotations[HASH_VERSION_ANNOTATION]
  if (version !== undefined) out.hashVersion = version
  return out
}

function toContainer(c: Container, status: ContainerStatus | undefined): RuntimeContainer {
  const a = c.annotations
  const out: RuntimeContainer = {
    id: c.id,
    sandboxId: c.podSandboxId,
    name: c.metadata.name || c.labels[CONTAINER_NAME_LABEL] || '',
    type: containerType(c.labels[CONTAINER_TYPE_LABEL]),
    // The status is fresher than the list when the caller fetched it.
    state: containerState(status?.state ?? c.state),
    // The kubelet reads the restart count back from its annotation; the attempt is the same number.
    restartCount: intAnnotation(a[CONTAINER_RESTART_COUNT_ANNOTATION]) ?? c.metadata.attempt,
    hash: a[CONTAINER_HASH_ANNOTATION] ?? '',
    createdAt: nsToMs(status?.createdAt ?? c.createdAt),
    startedAt: nsToMs(status?.startedAt ?? 0),
    finishedAt: nsToMs(status?.finishedAt ?? 0),
    exitCode: status?.exitCode ?? 0,
    reason: status?.reason ?? '',
    message: status?.message ?? '',
    image: status?.image.userSpecifiedImage || c.image.userSpecifiedImage || status?.image.image || c.image.image,
    imageRef: status?.imageRef || c.imageRef,
    logPath: status?.logPath ?? '',
  }
  const version = a[HASH_VERSION_ANNOTATION]
  if (version !== undefined) out.hashVersion = version
  const base = intAnnotation(a[RESTART_COUNT_BASE_ANNOTATION])
  if (base !== undefined && base <= out.restartCount) out.restartBase = base
  const configHash = a[CONTAINER_CONFIG_HASH_ANNOTATION]
  if (configHash !== undefined) out.configHash = configHash
  const grace = intAnnotation(a[POD_TERMINATION_GRACE_PERIOD_ANNOTATION])
  if (grace !== undefined) out.terminationGracePeriodSeconds = grace
  return out
}

// Newest first; ties (same nanosecond, or zero times) broken by id so the order is stable.
function newestFirst<T extends {createdAt: number; id: string; restartCount?: number; attempt?: number}>(a: T, b: T): number {
  const gen = (x: T): number => x.restartCount ?? x.attempt ?? 0
  return b.createdAt - a.createdAt || gen(b) - gen(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/**
 * Groups CRI sandboxes and containers into pods by the io.kubernetes.pod.uid label. Only
 * sandboxes labelled MANAGED_BY_LABEL=true (and carrying a uid) are kube-node's; containers
 * whose sandbox is not one of them are ignored. Pods are ordered by namespace, name and uid;
 * their sandboxes and containers newest first.
 */
export function buildRuntimePods(input: RuntimeListing): RuntimePod[] {
  const pods = new Map<string, RuntimePod>()
  const podOfSandbox = new Map<string, RuntimePod>()
  const ours = input.sandboxes.filter(isOurs).sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1))
  for (const s of ours) {
    const uid = s.labels[POD_UID_LABEL]!
    let pod = pods.get(uid)
    if (!pod) {
      // The newest sandbox comes first, so its labels name the pod.
      const name = s.labels[POD_NAME_LABEL] ?? s.metadata.name
      pod = {
        uid,
        name,
        namespace: s.labels[POD_NAMESPACE_LABEL] ?? s.metadata.namespace,
        manifestName: s.labels[MANIFEST_NAME_LABEL] || name,
        sandboxes: [],
        containers: [],
      }
      pods.set(uid, pod)
    }
    pod.sandboxes.push(toSandbox(s, input.sandboxIps.get(s.id)))
    podOfSandbox.set(s.id, pod)
  }
  for (const c of input.containers) {
    const pod = podOfSandbox.get(c.podSandboxId)
    if (pod) pod.containers.push(toContainer(c, input.statuses.get(c.id)))
  }
  const out = [...pods.values()]
  for (const p of out) {
    p.sandboxes.sort(newestFirst)
    p.containers.sort(newestFirst)
  }
  return out.sort((a, b) => byCodeUnit(a.namespace, b.namespace) || byCodeUnit(a.name, b.name) || byCodeUnit(a.uid, b.uid))
}
