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
import type {PodDirs} from '../store/pod-dir.js'
import {PathEscapeError} from '../util/contained-path.js'
import type {CreateSandboxAction, KillContainerAction, KillPodAction, PodAction, PodActions, StartContainerAction} from '../decide/actions.js'
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
  /** The pod directories this process made, shared with the status and event records. */
  podDirs: PodDirs
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

/** One plan being applied: what the steps share and what they leave behind. */
interface Run {
  readonly deps: ExecutorDeps
  readonly sp: StaticPod
  readonly plan: PodActions
  readonly observed: RuntimePod | undefined
  readonly inputs: SyncInputs
  readonly failures: StepFailure[]
  readonly started: string[]
  /** Containers whose image could not be pulled: they do not start in this plan. */
  readonly blocked: ReadonlySet<string>
  sandboxId: string
  /** The pod IP, for /etc/hosts, the downward API and hooks. */
  sandboxIP: string
  sandboxConfig: PodSandboxConfig
}

export async function executePlan(
  deps: ExecutorDeps,
  sp: StaticPod,
  plan: PodActions,
  observed: RuntimePod | undefined,
  inputs: SyncInputs,
): Promise<ExecuteResult> {
  const {signal} = inputs
  const started: string[] = []
  const done = (failures: StepFailure[], sandboxId: string): ExecuteResult => ({failures, sandboxId, started, interrupted: signal?.aborted ?? false})

  const failures: StepFailure[] = await pullImages(deps, plan, sp.pod, inputs.onStep, signal, inputs.objects)
  // Nothing is created yet (not even the pod's directory): an interrupted pull leaves nothing.
  if (signal?.aborted) return done(failures, plan.sandboxId)
  const blocked = new Set(failures.map((f) => f.container))
  // The kubelet pulls inside its container start: a failed pull is a failed start there.
  for (const a of plan.actions) if (a.type === 'StartContainer' && blocked.has(a.name)) deps.metrics?.containerStarted(a.containerType, 'ErrImagePull')

  const sandboxConfig = firstSandboxConfig(deps, sp, observed, failures)
  if (sandboxConfig === undefined || !(await preparePodDir(deps, sp, plan, failures))) return done(failures, plan.sandboxId)
  // The pod IP is known for an existing sandbox, asked once of the runtime for a new one.
  const sandboxIP = observed?.sandboxes.find((s) => s.id === plan.sandboxId)?.ip ?? ''
  const run: Run = {deps, sp, plan, observed, inputs, failures, started, blocked, sandboxId: plan.sandboxId, sandboxIP, sandboxConfig}
  for (const a of plan.actions) {
    // Between steps: the step in flight finished, no further one begins.
    if (signal?.aborted) break
    if (a.type !== 'PullImage') inputs.onStep?.(plan.name, describeAction(a))
    if (!(await step(run, a))) break
  }
  return done(failures, run.sandboxId)
}

/** The sandbox config of the current attempt; undefined (and a permanent failure) when the pod cannot have one. */
function firstSandboxConfig(deps: ExecutorDeps, sp: StaticPod, observed: RuntimePod | undefined, failures: StepFailure[]): PodSandboxConfig | undefined {
  try {
    return sandboxConfigFor(deps, sp, observed?.sandboxes[0]?.attempt ?? 0)
  } catch (err) {
    // Validation refuses such pods first; retrying cannot help.
    failures.push({container: '', reason: 'CreatePodSandboxError', message: errorMessage(err), permanent: true})
    return undefined
  }
}

/** The pod's private directory exists (0750) before anything is written for it; false (and a failure) when it cannot. */
async function preparePodDir(deps: ExecutorDeps, sp: StaticPod, plan: PodActions, failures: StepFailure[]): Promise<boolean> {
  if (!plan.actions.some((a) => a.type === 'CreateSandbox' || a.type === 'StartContainer')) return true
  try {
    await deps.podDirs.ensure(sp.pod.metadata.uid)
    await deps.savePod?.(sp)
    return true
  } catch (err) {
    failures.push({container: '', reason: 'CreatePodSandboxError', message: `cannot prepare the pod's directory: ${errorMessage(err)}`, permanent: err instanceof PathEscapeError})
    return false
  }
}

/** One action of the plan; false when the plan cannot go on (no sandbox could be created). */
async function step(run: Run, a: PodAction): Promise<boolean> {
  switch (a.type) {
    case 'PullImage':
      return true
    case 'KillPod':
      await killPod(run, a)
      return true
    case 'KillContainer':
      await killOne(run, a)
      return true
    case 'CreateSandbox':
      return newSandbox(run, a)
    case 'StartContainer':
      await startOne(run, a)
      return true
  }
}

/** Stopped, not removed: the pod keeps its containers for status, restart counts and `logs --previous` until garbage collection (apply/collect-garbage.ts). */
async function killPod(run: Run, a: KillPodAction): Promise<void> {
  const {deps, sp} = run
  deps.logger.debug(2, 'Killing pod', {pod: sp.pod.metadata.name, uid: sp.pod.metadata.uid, reason: a.reason})
  await stopPodSandboxes(deps, sp.pod, run.observed, {remove: false})
  run.sandboxId = ''
}

async function killOne(run: Run, a: KillContainerAction): Promise<void> {
  const {deps, sp, observed} = run
  // Keep the old container running when its replacement cannot start (gentle update).
  const replacement = run.plan.actions.some((s) => s.type === 'StartContainer' && s.name === a.name)
  if (replacement && run.blocked.has(a.name)) return
  deps.logger.debug(2, 'Killing container', {pod: sp.pod.metadata.name, uid: sp.pod.metadata.uid, container: a.name, reason: a.reason})
  const old = observed?.containers.find((c) => c.id === a.containerId)
  const podIP = observed?.sandboxes.find((s) => s.id === old?.sandboxId)?.ip ?? ''
  await killContainer(deps, {containerId: a.containerId, name: a.name, podIP, observed: old}, sp.pod, {reason: a.reason, restarted: replacement})
}

async function newSandbox(run: Run, a: CreateSandboxAction): Promise<boolean> {
  const {deps, sp, observed} = run
  deps.logger.debug(2, 'Creating sandbox', {pod: sp.pod.metadata.name, uid: sp.pod.metadata.uid, attempt: a.attempt, reason: a.reason})
  if ((observed?.sandboxes.length ?? 0) > 0) deps.events?.emit(podObject(sp.pod), 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.')
  // The same pod as above with another attempt number: it builds if that one did.
  run.sandboxConfig = sandboxConfigFor(deps, sp, a.attempt)
  const outcome = await createSandbox(deps, run.sandboxConfig, observed)
  deps.metrics?.podStarted('failure' in outcome)
  if ('failure' in outcome) {
    deps.events?.emit(podObject(sp.pod), 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${outcome.failure.message}`)
    run.failures.push(outcome.failure)
    run.sandboxId = ''
    return false
  }
  run.sandboxId = outcome.sandboxId
  run.sandboxIP = outcome.ip
  return true
}

async function startOne(run: Run, a: StartContainerAction): Promise<void> {
  const {deps, sp} = run
  if (run.blocked.has(a.name) || !run.sandboxId) return
  reportImagePresent(deps.events, sp.pod, run.plan, a.name)
  const sandbox = {id: run.sandboxId, config: run.sandboxConfig, ip: run.sandboxIP}
  const outcome = await startContainer(deps, sp.pod, sp.facts, a, sandbox, run.inputs.objects, run.inputs.signal)
  deps.metrics?.containerStarted(a.containerType, outcome.failure?.reason)
  if (outcome.failure) run.failures.push(outcome.failure)
  if (outcome.started) run.started.push(a.name)
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
