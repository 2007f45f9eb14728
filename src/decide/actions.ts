// The plan for one pod, as data: what computePodActions decided and why. `plan` prints it,
// `run`/`watch` hand the same value to the executor, which applies it in this order:
//   1. pull every image the plan needs (before anything running is stopped)
//   2. kill the whole pod, if the sandbox must be recreated
//   3. kill the containers that must go
//   4. create the sandbox
//   5. start the next init container, or the containers to start
import type {ContainerType} from '../kuberuntime/model.js'

export interface PullImageAction {
  type: 'PullImage'
  image: string
  /** The containers that need this image. */
  containers: string[]
  reason: string
}

export interface KillPodAction {
  type: 'KillPod'
  reason: string
}

export interface KillContainerAction {
  type: 'KillContainer'
  containerId: string
  name: string
  reason: string
}

export interface CreateSandboxAction {
  type: 'CreateSandbox'
  /** Sandbox attempt number: 0 for the first sandbox, previous + 1 after that. */
  attempt: number
  reason: string
}

export interface StartContainerAction {
  type: 'StartContainer'
  name: string
  containerType: ContainerType
  /** The restart count the new container gets: previous restart count + 1, or 0. */
  restartCount: number
  /**
   * The restart count at which its definition first ran: its own restartCount for a new or edited
   * definition (status shows restarts from 0 again, as for the kubelet's new pod), else carried on.
   */
  restartBase?: number
  reason: string
}

export type PodAction =
  | PullImageAction
  | KillPodAction
  | KillContainerAction
  | CreateSandboxAction
  | StartContainerAction

/**
 * A container that wants to start but must not yet: it is backing off after a crash or an image
 * pull failure, or its image can never be pulled. Status shows these as Waiting with `reason`.
 */
export interface BlockedContainer {
  name: string
  reason: 'CrashLoopBackOff' | 'ImagePullBackOff' | 'ErrImageNeverPull' | 'InvalidImageName'
  message: string
}

export interface PodActions {
  /** Pod UID. */
  uid: string
  /** Full static-pod name. */
  name: string
  namespace: string
  /** The sandbox to create containers in; empty when a new sandbox will be created. */
  sandboxId: string
  actions: PodAction[]
  blocked: BlockedContainer[]
  /**
   * True when the pod has reached a final phase (run-to-completion pods whose containers all
   * finished as the restart policy wants): nothing will ever be started again.
   */
  terminal: boolean
}

/**
 * Back-off state as data: container name → the earliest time (ms since the epoch) it may be
 * started again, with the reason for the wait.
 */
export interface BackOffEntry {
  until: number
  reason: 'CrashLoopBackOff' | 'ImagePullBackOff'
  message: string
  /** The pull error that armed an image-pull back-off, which the kubelet's waiting message repeats. */
  lastError?: string | undefined
}
export type PodBackOff = ReadonlyMap<string, BackOffEntry>

export function isNoop(plan: PodActions): boolean {
  return plan.actions.length === 0
}
