// The StartContainer step: prepare, CreateContainer, StartContainer, then the postStart hook. A
// failed hook kills the container (preStop and grace period included) and the start counts as
// failed with PostStartHookError, as in the kubelet; the restart policy then decides what follows.
// A kill of the pod interrupts the hook's wait (`signal`): the container counts as started, with
// no failure, and the kill that follows stops it with its preStop hook and grace period.
import type {Container, ObjectStore, PodFacts, StaticPod} from '../api/types.js'
import type {RuntimeService} from '../cri/port.js'
import type {StartContainerAction} from '../decide/actions.js'
import type {Clock} from '../util/clock.js'
import {CriError, errorMessage} from '../util/errors.js'
import {killContainer} from './kill.js'
import {FAILED_POST_START_HOOK, POST_START_TIMEOUT_MS, formatPod, runHook} from './lifecycle.js'
import {prepareContainer, type PrepareDeps, type SandboxRef} from './prepare-container.js'
import type {StepFailure} from './step-failure.js'
import type {EventSink} from '../api/events.js'
import {containerObject} from '../pod/event-object.js'
import {VolumeMountError} from '../kuberuntime/errors.js'

export interface StartDeps extends PrepareDeps {
  runtime: RuntimeService
  clock: Clock
  events?: EventSink | undefined
}

export interface StartOutcome {
  failure?: StepFailure
  /** StartContainer succeeded (even if the postStart hook then failed and the container was killed). */
  started: boolean
}

/**
 * Another attempt may well work: the runtime did not answer in time or was away, or something the
 * container needed was gone (NotFound: a sandbox whose shim died under it, an image removed since
 * the pull), which the next sync makes again. Anything else it says of a create or start (a
 * missing command, a bad mount) comes back every time: `run` fails the pod on it at once, and
 * `watch` backs it off as a crash.
 */
function mayPassOnRetry(err: unknown): boolean {
  return err instanceof CriError && (err.code === 'DeadlineExceeded' || err.code === 'Unavailable' || err.code === 'Cancelled' || err.code === 'NotFound')
}

function findContainer(pod: StaticPod['pod'], name: string): Container | undefined {
  const spec = pod.spec
  return [...(spec.initContainers ?? []), ...spec.containers].find((c) => c.name === name)
}

/** Starts the container `a` names of `pod` (its facts: the pod's, worked out with it) in `sandbox`. */
export async function startContainer(
  deps: StartDeps,
  pod: StaticPod['pod'],
  facts: PodFacts,
  a: StartContainerAction,
  sandbox: SandboxRef,
  objects: ObjectStore,
  signal?: AbortSignal,
): Promise<StartOutcome> {
  const event = (type: 'Normal' | 'Warning', reason: string, message: string): void => deps.events?.emit(containerObject(pod, a.name), type, reason, message)
  const fail = (reason: StepFailure['reason'], message: string, permanent: boolean): StartOutcome => {
    event('Warning', 'Failed', `Error: ${message}`)
    return {started: false, failure: {container: a.name, reason, message, permanent}}
  }
  const container = findContainer(pod, a.name)
  const own = facts.containers.get(a.name)
  if (!container || !own) return fail('CreateContainerConfigError', `container ${a.name} is not in the pod spec`, true)
  const {name, namespace, uid} = pod.metadata

  let config
  try {
    config = await prepareContainer(deps, pod, container, own, a, sandbox, objects)
  } catch (err) {
    // The event `kubectl describe` users look for when a volume cannot be set up.
    if (err instanceof VolumeMountError) event('Warning', 'FailedMount', err.message)
    return fail('CreateContainerConfigError', errorMessage(err), true)
  }
  deps.logger.debug(2, 'Starting container', {pod: name, uid, container: a.name, restartCount: a.restartCount, reason: a.reason})
  let id: string
  try {
    id = await deps.runtime.createContainer(sandbox.id, config, sandbox.config)
  } catch (err) {
    return fail('CreateContainerError', errorMessage(err), !mayPassOnRetry(err))
  }
  event('Normal', 'Created', `Created container: ${a.name}`)
  try {
    await deps.runtime.startContainer(id)
  } catch (err) {
    return fail('RunContainerError', errorMessage(err), !mayPassOnRetry(err))
  }
  event('Normal', 'Started', `Started container ${a.name}`)
  const postStart = container.lifecycle?.postStart
  if (!postStart) return {started: true}
  const hook = await runHook(deps, postStart, {containerId: id, containerName: a.name, pod: formatPod(name, namespace, uid), podIP: sandbox.ip, ports: container.ports ?? []}, POST_START_TIMEOUT_MS, signal)
  if (hook.ok || signal?.aborted) return {started: true}
  deps.logger.warn(FAILED_POST_START_HOOK, {pod: name, container: a.name, err: hook.message})
  event('Warning', FAILED_POST_START_HOOK, hook.message)
  await killContainer(deps, {containerId: id, name: a.name, podIP: sandbox.ip}, pod, {reason: FAILED_POST_START_HOOK})
  return {started: true, failure: {container: a.name, reason: 'PostStartHookError', message: hook.message, permanent: false}}
}
