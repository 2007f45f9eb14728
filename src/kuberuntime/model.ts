// The runtime's view of one pod, rebuilt from CRI lists by runtime-status.ts (the kubelet's
// kubecontainer.PodStatus). Everything here comes from the runtime's labels and annotations, so
// it can be rebuilt by any command at any time.

export type SandboxState = 'ready' | 'notready'
export type RuntimeContainerState = 'created' | 'running' | 'exited' | 'unknown'
export type ContainerType = 'init' | 'sidecar' | 'regular'

export interface RuntimeSandbox {
  id: string
  state: SandboxState
  attempt: number
  /** Milliseconds since the epoch. */
  createdAt: number
  /** Pod IP; empty for host-network sandboxes or when unknown. */
  ip: string
  /** kube-node's sandbox hash annotation; undefined on sandboxes kube-node did not hash. */
  hash?: string
  hashVersion?: string
  labels: Record<string, string>
  annotations: Record<string, string>
}

export interface RuntimeContainer {
  id: string
  sandboxId: string
  name: string
  type: ContainerType
  state: RuntimeContainerState
  /** The restart count this container was created with (CRI metadata.attempt). */
  restartCount: number
  /** The restart count at which its definition first ran (0 for containers made before it was kept). */
  restartBase?: number
  /** The pod's config hash it was created under, when kube-node recorded it. */
  configHash?: string
  hash: string
  hashVersion?: string
  /** Milliseconds since the epoch; 0 when not yet happened. */
  createdAt: number
  startedAt: number
  finishedAt: number
  exitCode: number
  /** The runtime's reason (Completed, Error, OOMKilled, ...) and message. */
  reason: string
  message: string
  image: string
  imageRef: string
  /** Absolute path of the container's log file, when known. */
  logPath: string
  /** From the pod termination grace period annotation, when set. */
  terminationGracePeriodSeconds?: number
}

export interface RuntimePod {
  uid: string
  /** Full static-pod name (`<name>-<node>`), from the sandbox labels. */
  name: string
  namespace: string
  /** The manifest's name, from kube-node's label; falls back to `name`. */
  manifestName: string
  /** Newest first. */
  sandboxes: RuntimeSandbox[]
  /** Every container of every sandbox of the pod, newest first. */
  containers: RuntimeContainer[]
}
