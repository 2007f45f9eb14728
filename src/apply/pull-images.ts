// Step 1 of a plan: pull every image it needs before anything is stopped, so that an update
// whose image cannot be had never stops what still runs. A kill of the pod (`signal`) cancels the
// pull in flight and the ones after it: nothing is reported, since the pod is going away.
// imagePullSecrets: a secret among the manifests' objects gives its registry credentials (tried in
// turn, as the kubelet does, until one pull succeeds); one not there is reported with the
// standalone kubelet's warning and the image is pulled without it.
import type {ImageService} from '../cri/port.js'
import type {PodActions} from '../decide/actions.js'
import {describeAction} from '../decide/describe.js'
import {CriError, runtimeErrorText} from '../util/errors.js'
import {formatGoDuration} from '../util/go-duration.js'
import type {Logger} from '../util/logger.js'
import type {StepFailure} from './step-failure.js'
import type {EventSink} from '../api/events.js'
import type {ObjectStore, Pod, Secret} from '../api/types.js'
import type {AuthConfig} from '../cri/api.js'
import {credentialsFor, DockerConfigError, keyringFromSecrets, type Keyring} from '../images/keyring.js'
import {containerObject, podObject} from '../pod/event-object.js'
import type {Clock} from '../util/clock.js'
import {untilAborted} from '../util/abort.js'
import type {SyncMetrics} from './sync-metrics.js'

export interface PullDeps {
  images: ImageService
  logger: Logger
  /** Runs image pulls one at a time (kubelet serializeImagePulls); absent: pulls run in parallel. */
  serializePulls?: (<T>(pull: () => Promise<T>) => Promise<T>) | undefined
  events?: EventSink | undefined
  clock: Clock
  metrics?: SyncMetrics | undefined
}

/** One ErrImagePull failure per container whose image could not be pulled (none for an interrupted pull). */
export async function pullImages(deps: PullDeps, plan: PodActions, pod: Pod, onStep?: (pod: string, text: string) => void, signal?: AbortSignal, objects?: ObjectStore): Promise<StepFailure[]> {
  const uid = pod.metadata?.uid ?? ''
  const event = (containers: readonly string[], type: 'Normal' | 'Warning', reason: string, message: string): void => {
    for (const c of containers) deps.events?.emit(containerObject(pod, c), type, reason, message)
  }
  const failures: StepFailure[] = []
  if (!plan.actions.some((a) => a.type === 'PullImage')) return failures
  const keyring = pullKeyring(deps, pod, objects)
  for (const a of plan.actions) {
    if (a.type !== 'PullImage') continue
    if (signal?.aborted) break
    onStep?.(plan.name, describeAction(a))
    deps.logger.debug(2, 'Pulling image', {pod: plan.name, uid, image: a.image, reason: a.reason})
    event(a.containers, 'Normal', 'Pulling', `Pulling image "${a.image}"`)
    const queued = deps.clock.now()
    try {
      if ('error' in keyring) throw new Error(keyring.error)
      const creds = credentialsFor(keyring, a.image)
      // The pull's own time, apart from the time spent waiting in the node's pull queue.
      let pulling = queued
      const pull = (): Promise<string> => {
        pulling = deps.clock.now()
        return pullWithCredentials(deps.images, a.image, creds, signal)
      }
      // Waiting in the node's pull queue ends on an abort too; the queued pull then cancels itself.
      await untilAborted(deps.serializePulls ? deps.serializePulls(pull) : pull(), signal)
      const done = deps.clock.now()
      const size = await pulledSize(deps.images, a.image)
      event(a.containers, 'Normal', 'Pulled', pulledMessage(a.image, done - pulling, done - queued, size))
      deps.metrics?.imagePulled((done - queued) / 1000, size)
    } catch (err) {
      if (signal?.aborted) {
        deps.logger.debug(2, 'Image pull interrupted', {pod: plan.name, uid, image: a.image})
        break
      }
      // The kubelet's words: the runtime's error as it gave it, in the event and the waiting message.
      const text = runtimeErrorText(err)
      event(a.containers, 'Warning', 'Failed', `Failed to pull image "${a.image}": ${text}`)
      event(a.containers, 'Warning', 'Failed', 'Error: ErrImagePull')
      const permanent = err instanceof CriError && err.code === 'NotFound'
      for (const c of a.containers) failures.push({container: c, reason: 'ErrImagePull', message: text, permanent})
    }
  }
  return failures
}

/** The kubelet's PullImage loop: each matching credential in turn until one works; none: one pull without. */
async function pullWithCredentials(images: ImageService, image: string, creds: readonly AuthConfig[], signal: AbortSignal | undefined): Promise<string> {
  const spec = {image, userSpecifiedImage: image}
  if (creds.length === 0) return images.pullImage(spec, undefined, {signal})
  const errors: unknown[] = []
  for (const auth of creds) {
    try {
      return await images.pullImage(spec, undefined, {signal}, auth)
    } catch (err) {
      if (signal?.aborted) throw err
      errors.push(err)
    }
  }
  if (errors.length === 1) throw errors[0]
  throw new Error(`[${errors.map(runtimeErrorText).join(', ')}]`)
}

/**
 * The keyring of the pod's imagePullSecrets found among the objects; the names not found get the
 * kubelet's FailedToRetrieveImagePullSecret warning (getPullSecretsForPod). A docker secret that
 * cannot be read fails the pulls, as in the kubelet, with a message that never quotes it.
 */
function pullKeyring(deps: PullDeps, pod: Pod, objects: ObjectStore | undefined): Keyring | {error: string} {
  const found: Secret[] = []
  const missing: string[] = []
  for (const ref of pod.spec?.imagePullSecrets ?? []) {
    if (!ref.name) continue
    const secret = objects?.secret(pod.metadata?.namespace ?? 'default', ref.name)
    if (secret) found.push(secret)
    else missing.push(ref.name)
  }
  if (missing.length > 0) {
    deps.events?.emit(podObject(pod), 'Warning', 'FailedToRetrieveImagePullSecret', `Unable to retrieve some image pull secrets (${missing.join(', ')}); attempting to pull the image may not succeed.`)
  }
  try {
    return keyringFromSecrets(found)
  } catch (err) {
    if (err instanceof DockerConfigError) return {error: err.message}
    throw err
  }
}

/**
 * A container starts with no pull (IfNotPresent and the image is there, or Never): the kubelet's
 * EnsureImageExists says so with a Pulled event before the container is created.
 */
export function reportImagePresent(events: EventSink | undefined, pod: Pod, plan: PodActions, container: string): void {
  if (!events || plan.actions.some((a) => a.type === 'PullImage' && a.containers.includes(container))) return
  const spec = pod.spec
  const image = [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])].find((c) => c.name === container)?.image
  if (image === undefined) return
  events.emit(containerObject(pod, container), 'Normal', 'Pulled', `Container image ${JSON.stringify(image)} already present on machine`)
}

/**
 * The kubelet's Pulled event: `Successfully pulled image "nginx:1.27" in 1.234s (1.5s including
 * waiting). Image size: 1234 bytes.`, both times truncated to milliseconds as it does.
 */
export function pulledMessage(image: string, pullMs: number, totalMs: number, size: number): string {
  const d = (ms: number): string => formatGoDuration(Math.floor(ms))
  return `Successfully pulled image ${JSON.stringify(image)} in ${d(pullMs)} (${d(totalMs)} including waiting). Image size: ${size} bytes.`
}

/** The pulled image's size, for the event and the metric's size label (the kubelet asks the runtime too); 0 if unknown. */
async function pulledSize(images: ImageService, image: string): Promise<number> {
  try {
    return (await images.imageStatus({image, userSpecifiedImage: image}))?.size ?? 0
  } catch {
    return 0
  }
}
