// Applies a PodActions plan through the CRI, in the order the plan lists (see decide/actions.ts),
// the way the kubelet's SyncPod runs its numbered steps; each step is a module of its own. It decides nothing itself: it only turns
// failures into the waiting reasons the kubelet would show (ErrImagePull, CreateContainerError…).
// Around each container it does what the kubelet's startContainer/killContainer do: the
// termination-message file and mount before CreateContainer, the postStart hook after
// StartContainer, the preStop hook and grace period rules before StopContainer (kill.ts).
// Its deps are the node's, built once; what a run brings (objects, progress, the signal a kill
// of the pod fires) is an argument. An interrupted plan stops between steps (and within a pull
// or a postStart hook): what it created by then is the kill's to remove.
import type {DNSConfig, PodSandboxConfig} from '../cri/api.js'
import type {ImageService, RuntimeService} from '../cri/port.js'
import type {StaticPod, ObjectStore} from '../api/types.js'
import type {EventSink} from '../api/events.js'
import {podObject} from '../pod/event-object.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {Logger} from '../util/logger.js'
import type {Clock} from '../util/clock.js'
import {type HostFs} from '../host/port.js'
import {ensurePodDir} from '../store/pod-dir.js'
import {PathEscapeError} from '../util/contained-path.js'
import type {PodActions} from '../decide/actions.js'
import type {RuntimeSupport} from '../decide/runtime-support.js'
import {buildSandboxConfig} from '../kuberuntime/sandbox-config.js'
import type {NodeCapacity} from '../kuberuntime/env.js'
import {describeAction} from '../decide/describe.js'
import {errorMessage} from '../util/errors.js'
import {stopPodSandboxes, killContainer} from './kill.js'
import {pullImages, reportImagePresent} from './pull-images.js'
import type {DiskUsageMeter} from '../host/port.js'
import {createSandbox} from './create-sandbox.js'
import {startContainer} from './start-container.js'
import type {StepFailure} from './step-failure.js'
import type {SyncMetrics} from './sync-metrics.js'

export type {StepFailure, WaitingReason} from './step-failure.js'

/** What applying a plan needs of the node: built once in the composition root, never changed. */
export interface ExecutorDeps {
  runtime: RuntimeService
  images: ImageService
  fs: HostFs
  logger: Logger
  clock: Clock
  rootDir: string
  podLogsDir: string
  hostDns: DNSConfig
  clusterDNS: readonly string[]
  clusterDomain: string
  /** The node's IP (status.hostIP for the downward API) and capacity (resourceFieldRef). */
  hostIP?: string | undefined
  nodeCapacity?: NodeCapacity | undefined
  /** Containers without a seccomp profile get RuntimeDefault (kubelet seccompDefault). */
  seccompDefault?: boolean | undefined
  /**
   * The runtime's optional features and the host's AppArmor, read once and only for a pod that
   * uses a field depending on them; absent (unit tests): such fields are not checked.
   */
  runtimeSupport?: (() => Promise<RuntimeSupport>) | undefined
  /** Runs image pulls one at a time (kubelet serializeImagePulls); absent: pulls run in parallel. */
  serializePulls?: (<T>(pull: () => Promise<T>) => Promise<T>) | undefined
  /** Records the pod's manifest (pod.json) before its first effect; absent in unit tests. */
  savePod?: ((sp: StaticPod) => Promise<void>) | undefined
  /** Where the steps report what they did and what failed (the event store). */
  events?: EventSink | undefined
  /** Who counts sandboxes, container starts and pulls (watch's /metrics). */
  metrics?: SyncMetrics | undefined
  /** Measures emptyDirs on disk for their sizeLimit (eviction); absent: they are not measured. */
  diskUsage?: DiskUsageMeter | undefined
}

/** What one `run` or `watch` brings to a sync: the manifests' objects and who hears each step. */
export interface SyncInputs {
  /** ConfigMaps and Secrets for volumes and env references. */
  objects: ObjectStore
  /** Told each step as it begins (run's live progress). */
  onStep?: ((pod: string, text: string) => void) | undefined
  /** Fired when the sync must end at once (the pod is being killed, the process is stopping). */
  signal?: AbortSignal | undefined
}

export interface ExecuteResult {
  failures: StepFailure[]
  /** The sandbox the pod's containers run in after this step, if any. */
  sandboxId: string
  /** Containers started by this step, by name (a failed postStart hook included: it did start). */
  started: string[]
  /** The signal ended the plan before its last step. */
  interrupted: boolean
}

export async function executePlan(
  deps: ExecutorDeps,
  sp: StaticPod,
  plan: PodActions,
  observed: RuntimePod | undefined,
  inputs: SyncInputs,
): Promise<ExecuteResult> {
  const {logger} = deps
  const {signal} = inputs
  const pod = {pod: sp.pod.metadata.name, uid: sp.pod.metadata.uid}
  const started: string[] = []
  const done = (failures: StepFailure[], sandboxId: string): ExecuteResult => ({failures, sandboxId, started, interrupted: signal?.aborted ?? false})

  const failures: StepFailure[] = await pullImages(deps, plan, sp.pod, inputs.onStep, signal, inputs.objects)
  // Nothing is created yet (not even the pod's directory): an interrupted pull leaves nothing.
  if (signal?.aborted) return done(failures, plan.sandboxId)
  const blocked = new Set(failures.map((f) => f.container))
  // The kubelet pulls inside its container start: a failed pull is a failed start there.
  for (const a of plan.actions) if (a.type === 'StartContainer' && blocked.has(a.name)) deps.metrics?.containerStarted(a.containerType, 'ErrImagePull')
  const willStart = (name: string): boolean => !blocked.has(name)

  let sandboxId = plan.sandboxId
  // The pod IP, for /etc/hosts, the downward API and hooks: known for an existing sandbox, asked
  // once of the runtime for a new one.
  let sandboxIP = observed?.sandboxes.find((s) => s.id === sandboxId)?.ip ?? ''
  const attempt = observed?.sandboxes[0]?.attempt ?? 0
  let sandboxConfig: PodSandboxConfig
  try {
    sandboxConfig = sandboxConfigFor(deps, sp, attempt)
  } catch (err) {
    // Validation refuses such pods first; retrying cannot help.
    failures.push({container: '', reason: 'CreatePodSandboxError', message: errorMessage(err), permanent: true})
    return done(failures, plan.sandboxId)
  }

  // The pod's private directory exists (0750) before anything is written for it.
  if (plan.actions.some((a) => a.type === 'CreateSandbox' || a.type === 'StartContainer')) {
    try {
      await ensurePodDir(deps.fs, deps.rootDir, sp.pod.metadata.uid)
      await deps.savePod?.(sp)
    } catch (err) {
      failures.push({container: '', reason: 'CreatePodSandboxError', message: `cannot prepare the pod's directory: ${errorMessage(err)}`, permanent: err instanceof PathEscapeError})
      return done(failures, plan.sandboxId)
    }
  }
  for (const a of plan.actions) {
    // Between steps: the step in flight finished, no further one begins.
    if (signal?.aborted) return done(failures, sandboxId)
    if (a.type !== 'PullImage') inputs.onStep?.(plan.name, describeAction(a))
    switch (a.type) {
      case 'PullImage':
        break
      case 'KillPod': {
        // Stopped, not removed: the pod keeps its containers for status, restart counts and
        // `logs --previous` until garbage collection (apply/collect-garbage.ts).
        logger.debug(2, 'Killing pod', {...pod, reason: a.reason})
        await stopPodSandboxes(deps, sp.pod, observed, {remove: false})
        sandboxId = ''
        break
      }
      case 'KillContainer': {
        // Keep the old container running when its replacement cannot start (gentle update).
        const replacement = plan.actions.some((s) => s.type === 'StartContainer' && s.name === a.name)
        if (replacement && !willStart(a.name)) break
        logger.debug(2, 'Killing container', {...pod, container: a.name, reason: a.reason})
        const old = observed?.containers.find((c) => c.id === a.containerId)
        const podIP = observed?.sandboxes.find((s) => s.id === old?.sandboxId)?.ip ?? ''
        await killContainer(deps, {containerId: a.containerId, name: a.name, podIP, observed: old}, sp.pod, {reason: a.reason, restarted: replacement})
        break
      }
      case 'CreateSandbox': {
        logger.debug(2, 'Creating sandbox', {...pod, attempt: a.attempt, reason: a.reason})
        if ((observed?.sandboxes.length ?? 0) > 0) deps.events?.emit(podObject(sp.pod), 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.')
        // The same pod as above with another attempt number: it builds if that one did.
        sandboxConfig = sandboxConfigFor(deps, sp, a.attempt)
        const outcome = await createSandbox(deps, sandboxConfig, observed)
        deps.metrics?.podStarted('failure' in outcome)
        if ('failure' in outcome) {
          deps.events?.emit(podObject(sp.pod), 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${outcome.failure.message}`)
          failures.push(outcome.failure)
          return done(failures, '')
        }
        sandboxId = outcome.sandboxId
        sandboxIP = outcome.ip
        break
      }
      case 'StartContainer': {
        if (!willStart(a.name) || !sandboxId) break
        reportImagePresent(deps.events, sp.pod, plan, a.name)
        const outcome = await startContainer(deps, sp, a, {id: sandboxId, config: sandboxConfig, ip: sandboxIP}, inputs.objects, signal)
        deps.metrics?.containerStarted(a.containerType, outcome.failure?.reason)
        if (outcome.failure) failures.push(outcome.failure)
        if (outcome.started) started.push(a.name)
        break
      }
    }
  }
  return done(failures, sandboxId)
}

function sandboxConfigFor(deps: ExecutorDeps, sp: StaticPod, attempt: number): PodSandboxConfig {
  return buildSandboxConfig(sp, {
    attempt,
    podLogsDir: deps.podLogsDir,
    hostDns: deps.hostDns,
    clusterDNS: [...deps.clusterDNS],
    clusterDomain: deps.clusterDomain,
  })
}
