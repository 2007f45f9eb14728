// What a failed step of a plan looks like: the waiting reason the kubelet would show for it.

export type WaitingReason =
  | 'ErrImagePull'
  | 'CreateContainerConfigError'
  | 'CreateContainerError'
  | 'RunContainerError'
  | 'CreatePodSandboxError'
  | 'PostStartHookError'

export interface StepFailure {
  /** Container name, or '' for a pod-level failure. */
  container: string
  reason: WaitingReason
  message: string
  /** True when retrying cannot help (e.g. the image does not exist). */
  permanent: boolean
}
