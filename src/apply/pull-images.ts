// Step 1 of a plan: pull every image it needs before anything is stopped, so that an update
// whose image cannot be had never stops what still runs. A kill of the pod (`signal`) cancels the
// pull in flight and the ones after it: nothing is reported, since the pod is going away.
import type {ImageService} from '../cri/port.js'
import type {PodActions} from '../decide/actions.js'
import {describeAction} from '../decide/describe.js'
import {CriError, errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import type {StepFailure} from './step-failure.js'
import type {EventSink} from '../api/events.js'
import type {Pod} from '../api/types.js'
import {containerObject} from '../pod/event-object.js'
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
export async function pullImages(deps: PullDeps, plan: PodActions, pod: Pod, onStep?: (pod: string, text: string) => void, signal?: AbortSignal): Promise<StepFailure[]> {
  const uid = pod.metadata?.uid ?? ''
  const event = (containers: readonly string[], type: 'Normal' | 'Warning', reason: string, message: string): void => {
    for (const c of containers) deps.events?.emit(containerObject(pod, c), type, reason, message)
  }
  const failures: StepFailure[] = []
  for (const a of plan.actions) {
    if (a.type !== 'PullImage') continue
    if (signal?.aborted) break
    onStep?.(plan.name, describeAction(a))
    deps.logger.debug(2, 'Pulling image', {pod: plan.name, uid, image: a.image, reason: a.reason})
    event(a.containers, 'Normal', 'Pulling', `Pulling image "${a.image}"`)
    const started = deps.clock.now()
    try {
      const pull = (): Promise<string> => deps.images.pullImage({image: a.image, userSpecifiedImage: a.image}, undefined, {signal})
      // Waiting in the node's pull queue ends on an abort too; the queued pull then cancels itself.
      await untilAborted(deps.serializePulls ? deps.serializePulls(pull) : pull(), signal)
      const seconds = (deps.clock.now() - started) / 1000
      event(a.containers, 'Normal', 'Pulled', `Successfully pulled image "${a.image}" in ${seconds.toFixed(3)}s`)
      if (deps.metrics) deps.metrics.imagePulled(seconds, await pulledSize(deps.images, a.image))
    } catch (err) {
      if (signal?.aborted) {
        deps.logger.debug(2, 'Image pull interrupted', {pod: plan.name, uid, image: a.image})
        break
      }
      event(a.containers, 'Warning', 'Failed', `Failed to pull image "${a.image}": ${errorMessage(err)}`)
      event(a.containers, 'Warning', 'Failed', 'Error: ErrImagePull')
      const permanent = err instanceof CriError && err.code === 'NotFound'
      for (const c of a.containers) {
        failures.push({container: c, reason: 'ErrImagePull', message: `failed to pull image "${a.image}": ${errorMessage(err)}`, permanent})
      }
    }
  }
  return failures
}

/** The pulled image's size, for the metric's size label (the kubelet asks the runtime too); 0 if unknown. */
async function pulledSize(images: ImageService, image: string): Promise<number> {
  try {
    return (await images.imageStatus({image, userSpecifiedImage: image}))?.size ?? 0
  } catch {
    return 0
  }
}
