// The CRI as kube-node's core sees it: two narrow interfaces, implemented by cri/grpc (containerd),
// decorated by cri/instrumented (deadlines, logs, metrics) and faked in test/support.
// Every method rejects with a CriError naming the call. Stopping and removing are idempotent, as
// the CRI asks: a sandbox or container that is already stopped or gone is not an error.
import type {
  AuthConfig,
  Container,
  ContainerConfig,
  ContainerFilter,
  ContainerStats,
  ContainerStatsFilter,
  ContainerStatus,
  ExecSyncResult,
  Image,
  ImageSpec,
  PodSandbox,
  PodSandboxConfig,
  PodSandboxFilter,
  PodSandboxStatus,
  RuntimeCondition,
  RuntimeFeatures,
  VersionInfo,
} from './api.js'

/**
 * Per-call options for the calls that can take long (a pull, a hook's exec). Given with each call,
 * never stored: the same runtime serves every pod, and one pod's kill cancels only its own calls.
 */
export interface CriCallOptions {
  /** Cancels the call (on the wire for a remote runtime); it then rejects with code Cancelled. */
  signal?: AbortSignal | undefined
}

export interface RuntimeService {
  version(): Promise<VersionInfo>
  status(): Promise<RuntimeCondition[]>
  /**
   * The optional features the runtime reports (the same Status call, read for its handlers and
   * features). Asked only when a pod uses a field that depends on one, so that plain runs make
   * no extra call; callers keep the answer for the process.
   */
  runtimeFeatures(): Promise<RuntimeFeatures>
  /** Returns the new sandbox's ID. */
  runPodSandbox(config: PodSandboxConfig, runtimeHandler?: string): Promise<string>
  stopPodSandbox(podSandboxId: string): Promise<void>
  removePodSandbox(podSandboxId: string): Promise<void>
  podSandboxStatus(podSandboxId: string): Promise<PodSandboxStatus>
  listPodSandbox(filter?: PodSandboxFilter): Promise<PodSandbox[]>
  /** Returns the new container's ID. */
  createContainer(podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig): Promise<string>
  startContainer(containerId: string): Promise<void>
  /** Sends the stop signal, then SIGKILL after `timeoutSeconds`. */
  stopContainer(containerId: string, timeoutSeconds: number): Promise<void>
  removeContainer(containerId: string): Promise<void>
  listContainers(filter?: ContainerFilter): Promise<Container[]>
  containerStatus(containerId: string): Promise<ContainerStatus>
  execSync(containerId: string, cmd: string[], timeoutSeconds: number, opts?: CriCallOptions): Promise<ExecSyncResult>
  reopenContainerLog(containerId: string): Promise<void>
  /** CPU and memory usage of the runtime's running containers. */
  listContainerStats(filter?: ContainerStatsFilter): Promise<ContainerStats[]>
}

export interface ImageService {
  listImages(filter?: ImageSpec): Promise<Image[]>
  /** Resolves to null when the image is not present. */
  imageStatus(image: ImageSpec): Promise<Image | null>
  /** Returns the image reference (ID or digest) the runtime stored. `auth`: the registry credentials, if any. */
  pullImage(image: ImageSpec, sandboxConfig?: PodSandboxConfig, opts?: CriCallOptions, auth?: AuthConfig): Promise<string>
  removeImage(image: ImageSpec): Promise<void>
}

/** Both services, as a composition root hands them to the core. */
export interface Runtime {
  runtime: RuntimeService
  images: ImageService
  close(): void
}
