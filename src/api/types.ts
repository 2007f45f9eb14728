// The v1 API subset kube-node reads and writes. The shapes are generated from the upstream
// Kubernetes OpenAPI of one named version (src/api/generated, `npm run gen:api`), so field names
// match kubectl's exactly and newer fields are known.
export type {
  Pod,
  PodSpec,
  PodStatus,
  PodCondition,
  Container,
  ContainerPort,
  ContainerState,
  ContainerStatus,
  EnvVar,
  Volume,
  VolumeMount,
  Probe,
  PodList,
  ConfigMap,
  Secret,
  Event,
  EventList,
  ObjectMeta,
  Toleration,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  AppArmorProfile,
} from './generated/types.js'

import type {Pod} from './generated/types.js'

/** Where a pod came from: the file (and document index) or URL that defined it. */
export interface PodSource {
  /** `file`, `http` or `stdin`, as in the kubelet's `kubernetes.io/config.source`. */
  kind: 'file' | 'http' | 'stdin'
  /** The file path, URL or `-`. */
  location: string
  /** 0-based index of the YAML document (or List item) inside the location. */
  document: number
}

/**
 * A static pod after decoding, validation and defaulting: `pod.metadata.name`, `namespace` and
 * `uid` are always set, `spec.nodeName` is the node.
 */
export interface StaticPod {
  pod: Pod & {metadata: {name: string; namespace: string; uid: string}; spec: NonNullable<Pod['spec']>}
  source: PodSource
  /** The name written in the manifest, without the node suffix. */
  manifestName: string
  /** Manifest names of the pods this one is created after (`kube-node.io/start-after`); absent when none. */
  startAfter?: readonly string[]
  /** Worked out from `pod` when the StaticPod is built (kuberuntime/pod-facts.ts); never stored. */
  facts: PodFacts
}

/**
 * What the sync reads of a pod at every turn, worked out once when its StaticPod is built
 * (kuberuntime/pod-facts.ts) rather than at each sync by every step that needs it.
 */
export interface PodFacts {
  /** The sandbox hash under the current hash version (kuberuntime/hash.ts). */
  readonly sandboxHash: string
  /** The pod's QoS class (kuberuntime/resources.ts), as status shows it. */
  readonly qosClass: QosClass
  /** Each container's facts (init and regular), by name. */
  readonly containers: ReadonlyMap<string, ContainerFacts>
}

export interface ContainerFacts {
  /** The container's hash under the current hash version (kuberuntime/hash.ts). */
  readonly hash: string
  /** The cgroup numbers its requests and limits give (CRI LinuxContainerResources). */
  readonly limits: CgroupLimits
  /** What its OOM score adjustment depends on besides the node's memory (kuberuntime/resources.ts). */
  readonly oom: OomScoreInputs
}

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort'

export interface CgroupLimits {
  readonly cpuPeriod: number
  readonly cpuQuota: number
  readonly cpuShares: number
  readonly memoryLimitInBytes: number
}

/**
 * A fixed adjustment (a Guaranteed, BestEffort or node-critical pod), or a Burstable container's
 * memory request, its share of a pod-level request and, for a sidecar, the smallest request of a
 * regular container (it is killed no sooner than that one).
 */
export type OomScoreInputs =
  | {readonly fixed: number}
  | {readonly memoryRequest: number; readonly shared: number; readonly sidecarFloor?: number | undefined}

export type PodOperation = 'ADD' | 'UPDATE' | 'REMOVE' | 'RECONCILE'

/** One change from the pod-config merge to the pod workers. */
export interface PodUpdate {
  op: PodOperation
  pods: StaticPod[]
}

import type {ConfigMap, Secret} from './generated/types.js'

/**
 * ConfigMaps and Secrets placed beside the pods (same file, same directory or another -f):
 * static pods have no API server, so their volumes and env references resolve from here.
 */
export interface ObjectStore {
  configMap(namespace: string, name: string): ConfigMap | undefined
  secret(namespace: string, name: string): Secret | undefined
}
