// Plain TypeScript shapes of the CRI runtime.v1 messages kube-node uses (k8s.io/cri-api).
// Field names are the proto names in camelCase; enums are their proto names as strings; int64
// timestamps are nanoseconds since the epoch as `number` (sub-microsecond precision is not
// needed). Only cri/grpc translates these to and from the wire.

export type NamespaceMode = 'POD' | 'CONTAINER' | 'NODE' | 'TARGET'
export type Protocol = 'TCP' | 'UDP' | 'SCTP'
export type MountPropagation = 'PROPAGATION_PRIVATE' | 'PROPAGATION_HOST_TO_CONTAINER' | 'PROPAGATION_BIDIRECTIONAL'
export type PodSandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY'
export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN'
export type Labels = Record<string, string>

export interface VersionInfo {
  version: string
  runtimeName: string
  runtimeVersion: string
  runtimeApiVersion: string
}

export interface DNSConfig {
  servers: string[]
  searches: string[]
  options: string[]
}

export interface PortMapping {
  protocol: Protocol
  containerPort: number
  hostPort: number
  hostIp: string
}

export interface Mount {
  containerPath: string
  hostPath: string
  readonly: boolean
  selinuxRelabel: boolean
  propagation: MountPropagation
  /** Read-only all the way down (submounts too); only for a runtime handler reporting recursive_read_only_mounts. */
  recursiveReadOnly?: boolean
}

export interface NamespaceOption {
  network: NamespaceMode
  pid: NamespaceMode
  ipc: NamespaceMode
}

export interface SecurityProfile {
  profileType: 'RuntimeDefault' | 'Unconfined' | 'Localhost'
  localhostRef: string
}

/** An SELinux label; the runtime applies it only where SELinux is enabled on the host. */
export interface SELinuxOption {
  user: string
  role: string
  type: string
  level: string
}

export interface LinuxSandboxSecurityContext {
  namespaceOptions?: NamespaceOption
  selinuxOptions?: SELinuxOption
  runAsUser?: {value: number}
  runAsGroup?: {value: number}
  readonlyRootfs?: boolean
  supplementalGroups?: number[]
  privileged?: boolean
  seccomp?: SecurityProfile
  supplementalGroupsPolicy?: SupplementalGroupsPolicy
}

/** Merge: the image's /etc/group memberships are added to the groups given; Strict: only these. */
export type SupplementalGroupsPolicy = 'Merge' | 'Strict'

export interface LinuxContainerResources {
  cpuPeriod: number
  cpuQuota: number
  cpuShares: number
  memoryLimitInBytes: number
  oomScoreAdj: number
  cpusetCpus: string
  cpusetMems: string
}

export interface LinuxPodSandboxConfig {
  cgroupParent?: string
  securityContext?: LinuxSandboxSecurityContext
  sysctls?: Record<string, string>
  resources?: LinuxContainerResources
}

export interface PodSandboxMetadata {
  name: string
  uid: string
  namespace: string
  attempt: number
}

export interface PodSandboxConfig {
  metadata: PodSandboxMetadata
  hostname: string
  logDirectory: string
  dnsConfig?: DNSConfig
  portMappings: PortMapping[]
  labels: Labels
  annotations: Labels
  linux?: LinuxPodSandboxConfig
}

export interface PodSandbox {
  id: string
  metadata: PodSandboxMetadata
  state: PodSandboxState
  /** Nanoseconds since the epoch. */
  createdAt: number
  labels: Labels
  annotations: Labels
  runtimeHandler: string
}

export interface PodSandboxStatus extends PodSandbox {
  network?: {ip: string; additionalIps: {ip: string}[]}
  linux?: {namespaces?: {options?: NamespaceOption}}
}

export interface PodSandboxFilter {
  id?: string
  state?: PodSandboxState
  labelSelector?: Labels
}

export interface ImageSpec {
  image: string
  annotations?: Labels
  userSpecifiedImage?: string
}

/**
 * Registry credentials for one pull (CRI AuthConfig), from an imagePullSecret. A secret: never
 * logged, printed, stored or put in an error or event.
 */
export interface AuthConfig {
  username?: string
  password?: string
  /** base64 of `username:password`, as a docker config's `auth`. */
  auth?: string
  serverAddress?: string
  identityToken?: string
  registryToken?: string
}

export interface KeyValue {
  key: string
  value: string
}

export interface Capability {
  addCapabilities: string[]
  dropCapabilities: string[]
}

export interface LinuxContainerSecurityContext {
  capabilities?: Capability
  privileged?: boolean
  namespaceOptions?: NamespaceOption
  selinuxOptions?: SELinuxOption
  runAsUser?: {value: number}
  runAsGroup?: {value: number}
  runAsUsername?: string
  readonlyRootfs?: boolean
  supplementalGroups?: number[]
  noNewPrivs?: boolean
  maskedPaths?: string[]
  readonlyPaths?: string[]
  seccomp?: SecurityProfile
  apparmor?: SecurityProfile
  /** The same profile in the deprecated string form, the only one containerd 1.6 reads. */
  apparmorProfile?: string
  supplementalGroupsPolicy?: SupplementalGroupsPolicy
}

export interface ContainerMetadata {
  name: string
  attempt: number
}

export interface ContainerConfig {
  metadata: ContainerMetadata
  image: ImageSpec
  command: string[]
  args: string[]
  workingDir: string
  envs: KeyValue[]
  mounts: Mount[]
  labels: Labels
  annotations: Labels
  /** Relative to the sandbox's logDirectory. */
  logPath: string
  stdin: boolean
  stdinOnce: boolean
  tty: boolean
  linux?: {resources?: LinuxContainerResources; securityContext?: LinuxContainerSecurityContext}
}

export interface Container {
  id: string
  podSandboxId: string
  metadata: ContainerMetadata
  image: ImageSpec
  imageRef: string
  state: ContainerState
  /** Nanoseconds since the epoch. */
  createdAt: number
  labels: Labels
  annotations: Labels
}

export interface ContainerStatus {
  id: string
  metadata: ContainerMetadata
  state: ContainerState
  /** Nanoseconds since the epoch; 0 when not yet happened. */
  createdAt: number
  startedAt: number
  finishedAt: number
  exitCode: number
  image: ImageSpec
  imageRef: string
  reason: string
  message: string
  labels: Labels
  annotations: Labels
  mounts: Mount[]
  logPath: string
}

export interface ContainerFilter {
  id?: string
  state?: ContainerState
  podSandboxId?: string
  labelSelector?: Labels
}

export interface ContainerStatsFilter {
  id?: string
  podSandboxId?: string
  labelSelector?: Labels
}

/** A usage sample: when the runtime took it (ms since the epoch) and the value. */
export interface UsageSample {
  timestampMs: number
  value: number
}

/** One container's resource usage (CRI ContainerStats); a usage the runtime did not report is absent. */
export interface ContainerStats {
  id: string
  metadata: ContainerMetadata
  labels: Labels
  /** Cumulative CPU time of all cores since the container started, in nanoseconds. */
  cpuUsageCoreNanoSeconds?: UsageSample
  /** Working-set memory in bytes. */
  memoryWorkingSetBytes?: UsageSample
}

export interface ExecSyncResult {
  stdout: Buffer
  stderr: Buffer
  exitCode: number
}

export interface Image {
  id: string
  repoTags: string[]
  repoDigests: string[]
  /** Bytes. */
  size: number
  /** The image's user: a numeric uid when it has one, else a user name ('' when unset). */
  uid?: number
  username?: string
}

/** What one runtime handler (a RuntimeClass's handler; '' is the default) can do. */
export interface RuntimeHandler {
  name: string
  recursiveReadOnlyMounts: boolean
  userNamespaces: boolean
}

/**
 * The optional features a runtime reports in its Status (runtime_handlers, features). A runtime
 * that predates these fields reports none: no handlers, and every feature false.
 */
export interface RuntimeFeatures {
  handlers: RuntimeHandler[]
  supplementalGroupsPolicy: boolean
}

export interface RuntimeCondition {
  type: string
  status: boolean
  reason: string
  message: string
}
