// Applies a PodActions plan through the CRI, in the order the plan lists (see actions.ts), the
// way the kubelet's SyncPod runs its numbered steps. It decides nothing itself: it only turns
// failures into the waiting reasons the kubelet would show (ErrImagePull, CreateContainerError…).
// Around each container it does what the kubelet's startContainer/killContainer do: the
// termination-message file and mount before CreateContainer, the postStart hook after
// StartContainer, the preStop hook and grace period rules before StopContainer (kill.ts).
import type {DNSConfig, PodSandboxConfig} from '../cri/api.js'
import type {Runtime} from '../cri/port.js'
import type {StaticPod, Container, ObjectStore} from '../api/types.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {Logger} from '../util/logger.js'
import type {Clock} from '../util/clock.js'
import {ensurePodDir, type HostFs} from './host-fs.js'
import {PathEscapeError} from '../util/contained-path.js'
import {secureSubPathMounts} from './volumes/subpath.js'
import type {PodActions, StartContainerAction} from '../decide/actions.js'
import {buildSandboxConfig} from '../kuberuntime/sandbox-config.js'
import {buildContainerConfig} from '../kuberuntime/container-config.js'
import type {NodeCapacity} from '../kuberuntime/env.js'
import {podLogDirectory} from '../kuberuntime/naming.js'
import {describeAction} from '../decide/describe.js'
import {prepareEtcHosts} from './etc-hosts.js'
import {ignoreNotFound} from '../cri/errors.js'
import {effectiveRunAs, verifyRunAsNonRoot} from '../kuberuntime/run-as-non-root.js'
import {prepareVolumes} from './volumes/setup.js'
import {volumeSources} from './volumes/registry.js'
import {CriError, errorMessage} from '../util/errors.js'
import {removeSandboxes, stopPodSandboxes, killContainer, type KillDeps} from './kill.js'
import {prepareTerminationMessage} from '../kuberuntime/termination-message.js'
import {FAILED_POST_START_HOOK, POST_START_TIMEOUT_MS, formatPod, runHook} from './lifecycle.js'
import {realClock} from '../util/clock.js'

export interface ExecutorDeps {
  runtime: Runtime
  fs: HostFs
  logger: Logger
  rootDir: string
  podLogsDir: string
  hostDns: DNSConfig
  clusterDNS: string[]
  clusterDomain: string
  /** ConfigMaps and Secrets for volumes and env references; replaced by run/watch as manifests load. */
  objects: ObjectStore
  /** The node's IP (status.hostIP for the downward API) and capacity (resourceFieldRef). */
  hostIP?: string
  nodeCapacity?: NodeCapacity
  /** Runs image pulls one at a time (kubelet serializeImagePulls); absent: pulls run in parallel. */
  serializePulls?: <T>(pull: () => Promise<T>) => Promise<T>
  /** Told each step as it begins (run's live progress). */
  onStep?: (pod: string, text: string) => void
  /** Times preStop hooks and runs sleep hooks; the real clock when not given. */
  clock?: Clock
  /** Records the pod's manifest (pod.json) before its first effect; absent in unit tests. */
  savePod?: (sp: StaticPod) => Promise<void>
}

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

export interface ExecuteResult {
  failures: StepFailure[]
  /** The sandbox the pod's containers run in after this step, if any. */
  sandboxId: string
  /** Containers started by this step, by name (a failed postStart hook included: it did start). */
  started: string[]
}

function findContainer(sp: StaticPod, name: string): Container | undefined {
  const spec = sp.pod.spec
  return [...(spec.initContainers ?? []), ...spec.containers].find((c) => c.name === name)
}

export async function executePlan(
  deps: ExecutorDeps,
  sp: StaticPod,
  plan: PodActions,
  observed: RuntimePod | undefined,
): Promise<ExecuteResult> {
  const {runtime, logger} = deps
  const pod = {pod: sp.pod.metadata.name, uid: sp.pod.metadata.uid}
  const failures: StepFailure[] = []
  const started: string[] = []
  const failedImages = new Set<string>()

  // 1. Pull first, so that an update whose image cannot be had never stops what still runs.
  for (const a of plan.actions) {
    if (a.type !== 'PullImage') continue
    deps.onStep?.(plan.name, describeAction(a))
    logger.debug(2, 'Pulling image', {...pod, image: a.image, reason: a.reason})
    try {
      const pull = (): Promise<string> => runtime.images.pullImage({image: a.image, userSpecifiedImage: a.image})
      await (deps.serializePulls ? deps.serializePulls(pull) : pull())
    } catch (err) {
      failedImages.add(a.image)
      const permanent = err instanceof CriError && err.code === 'NotFound'
      for (const c of a.containers) {
        failures.push({container: c, reason: 'ErrImagePull', message: `failed to pull image "${a.image}": ${errorMessage(err)}`, permanent})
      }
    }
  }
  const blocked = new Set(failures.map((f) => f.container))
  const willStart = (name: string): boolean => !blocked.has(name)

  let sandboxId = plan.sandboxId
  // The pod IP, for /etc/hosts, the downward API and hooks: known for an existing sandbox, asked
  // once of the runtime for a new one.
  let sandboxIP = observed?.sandboxes.find((s) => s.id === sandboxId)?.ip ?? ''
  const attempt = observed?.sandboxes[0]?.attempt ?? 0
  const kill = killDeps(deps)
  let sandboxConfig = sandboxConfigFor(deps, sp, attempt)

  // The pod's private directory exists (0750) before anything is written for it.
  if (plan.actions.some((a) => a.type === 'CreateSandbox' || a.type === 'StartContainer')) {
    try {
      await ensurePodDir(deps.fs, deps.rootDir, sp.pod.metadata.uid)
      await deps.savePod?.(sp)
    } catch (err) {
      failures.push({container: '', reason: 'CreatePodSandboxError', message: `cannot prepare the pod's directory: ${errorMessage(err)}`, permanent: err instanceof PathEscapeError})
      return {failures, sandboxId: plan.sandboxId, started}
    }
  }
  for (const a of plan.actions) {
    if (a.type !== 'PullImage') deps.onStep?.(plan.name, describeAction(a))
    switch (a.type) {
      case 'PullImage':
        break
      case 'KillPod': {
        // Stopped, not removed: a finished pod keeps its containers for status and logs. Old
        // sandboxes are removed once a new one replaces them (below).
        logger.debug(2, 'Killing pod', {...pod, reason: a.reason})
        await stopPodSandboxes(kill, sp.pod, observed, {remove: false})
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
        await killContainer(kill, {containerId: a.containerId, name: a.name, podIP, ...(old ? {observed: old} : {})}, sp.pod, {reason: a.reason})
        break
      }
      case 'CreateSandbox': {
        logger.debug(2, 'Creating sandbox', {...pod, attempt: a.attempt, reason: a.reason})
        sandboxConfig = sandboxConfigFor(deps, sp, a.attempt)
        try {
          await deps.fs.mkdirp(sandboxConfig.logDirectory)
          sandboxId = await runtime.runtime.runPodSandbox(sandboxConfig)
        } catch (err) {
          failures.push({container: '', reason: 'CreatePodSandboxError', message: `failed to create sandbox: ${errorMessage(err)}`, permanent: false})
          return {failures, sandboxId: '', started}
        }
        await removeSandboxes(runtime.runtime, (observed?.sandboxes ?? []).map((s) => s.id))
        sandboxIP = (await ignoreNotFound(runtime.runtime.podSandboxStatus(sandboxId)).catch(() => undefined))?.network?.ip ?? ''
        break
      }
      case 'StartContainer': {
        if (!willStart(a.name)) break
        if (!sandboxId) break
        const outcome = await startContainer(deps, sp, a, sandboxId, sandboxConfig, sandboxIP)
        if (outcome.failure) failures.push(outcome.failure)
        if (outcome.started) started.push(a.name)
        break
      }
    }
  }
  return {failures, sandboxId, started}
}

function killDeps(deps: ExecutorDeps): KillDeps {
  return {runtime: deps.runtime.runtime, logger: deps.logger, clock: deps.clock ?? realClock}
}

function sandboxConfigFor(deps: ExecutorDeps, sp: StaticPod, attempt: number): PodSandboxConfig {
  return buildSandboxConfig(sp, {
    attempt,
    podLogsDir: deps.podLogsDir,
    hostDns: deps.hostDns,
    clusterDNS: deps.clusterDNS,
    clusterDomain: deps.clusterDomain,
  })
}

interface StartOutcome {
  failure?: StepFailure
  /** StartContainer succeeded (even if the postStart hook then failed and the container was killed). */
  started: boolean
}

async function startContainer(
  deps: ExecutorDeps,
  sp: StaticPod,
  a: StartContainerAction,
  sandboxId: string,
  sandboxConfig: PodSandboxConfig,
  podIP: string,
): Promise<StartOutcome> {
  const {runtime, logger} = deps
  const container = findContainer(sp, a.name)
  if (!container) {
    return {started: false, failure: {container: a.name, reason: 'CreateContainerConfigError', message: `container ${a.name} is not in the pod spec`, permanent: true}}
  }
  const uid = sp.pod.metadata.uid

  let config
  try {
    // runAsNonRoot without a runAsUser asks the image who it runs as (one ImageStatus call).
    const runAs = effectiveRunAs(sp.pod, container)
    const imageUser = runAs.runAsNonRoot && runAs.runAsUser === undefined ? ((await runtime.images.imageStatus({image: container.image ?? ''})) ?? undefined) : undefined
    const nonRoot = verifyRunAsNonRoot(sp.pod, container, imageUser)
    if (nonRoot) throw new Error(nonRoot)
    config = buildContainerConfig(sp, container, {
      restartCount: a.restartCount,
      rootDir: deps.rootDir,
      podIP,
      containerType: a.containerType,
      sandboxConfig,
      objects: deps.objects,
      hostIP: deps.hostIP,
      nodeCapacity: deps.nodeCapacity,
      volumeSource: volumeSources(deps.rootDir, uid),
    })
    await prepareVolumes(deps, sp, container)
    await secureSubPathMounts(sp.pod, container, deps.rootDir, config.mounts, new Map(config.envs.map((e) => [e.key, e.value])))
    await deps.fs.mkdirp(`${podLogDirectory(deps.podLogsDir, sp.pod.metadata.namespace, sp.pod.metadata.name, uid)}/${a.name}`)
    const hosts = await prepareEtcHosts(
      {fs: deps.fs, rootDir: deps.rootDir, clusterDomain: deps.clusterDomain, nodeName: sp.pod.spec.nodeName ?? '', ...(deps.hostIP ? {hostIP: deps.hostIP} : {})},
      sp,
      container,
      podIP,
      sandboxConfig.hostname,
    )
    if (hosts) config.mounts.push(hosts)
    const message = await prepareTerminationMessage(deps.rootDir, uid, container)
    if (message) {
      config.mounts.push(message.mount)
      Object.assign(config.annotations, message.annotations)
    }
  } catch (err) {
    return {started: false, failure: {container: a.name, reason: 'CreateContainerConfigError', message: errorMessage(err), permanent: true}}
  }
  logger.debug(2, 'Starting container', {pod: sp.pod.metadata.name, uid, container: a.name, restartCount: a.restartCount, reason: a.reason})
  let id: string
  try {
    id = await runtime.runtime.createContainer(sandboxId, config, sandboxConfig)
  } catch (err) {
    return {started: false, failure: {container: a.name, reason: 'CreateContainerError', message: errorMessage(err), permanent: false}}
  }
  try {
    await runtime.runtime.startContainer(id)
  } catch (err) {
    return {started: false, failure: {container: a.name, reason: 'RunContainerError', message: errorMessage(err), permanent: false}}
  }
  const postStart = container.lifecycle?.postStart
  if (!postStart) return {started: true}
  const {name, namespace} = sp.pod.metadata
  const clock = deps.clock ?? realClock
  const hook = await runHook(
    {runtime: runtime.runtime, clock},
    postStart,
    {containerId: id, containerName: a.name, pod: formatPod(name, namespace, uid), podIP, ports: container.ports ?? []},
    POST_START_TIMEOUT_MS,
  )
  if (hook.ok) return {started: true}
  // As the kubelet: the container is killed (its preStop hook and grace period included) and the
  // start counts as failed with PostStartHookError; the restart policy then decides what follows.
  logger.warn(FAILED_POST_START_HOOK, {pod: name, container: a.name, err: hook.message})
  await killContainer(killDeps(deps), {containerId: id, name: a.name, podIP}, sp.pod, {reason: FAILED_POST_START_HOOK})
  return {started: true, failure: {container: a.name, reason: 'PostStartHookError', message: hook.message, permanent: false}}
}
