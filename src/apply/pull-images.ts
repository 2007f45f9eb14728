// Step 1 of a plan: pull every image it needs before anything is stopped, so that an update
// whose image cannot be had never stops what still runs.
import type {ImageService} from '../cri/port.js'
import type {PodActions} from '../decide/actions.js'
import {describeAction} from '../decide/describe.js'
import {CriError, errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import type {StepFailure} from './step-failure.js'

export interface PullDeps {
  images: ImageService
  logger: Logger
  /** Runs image pulls one at a time (kubelet serializeImagePulls); absent: pulls run in parallel. */
  serializePulls?: (<T>(pull: () => Promise<T>) => Promise<T>) | undefined
}

/** One ErrImagePull failure per container whose image could not be pulled. */
export async function pullImages(deps: PullDeps, plan: PodActions, uid: string, onStep?: (pod: string, text: string) => void): Promise<StepFailure[]> {
  const failures: StepFailure[] = []
  for (const a of plan.actions) {
    if (a.type !== 'PullImage') continue
    onStep?.(plan.name, describeAction(a))
    deps.logger.debug(2, 'Pulling image', {pod: plan.name, uid, image: a.image, reason: a.reason})
    try {
      const pull = (): Promise<string> => deps.images.pullImage({image: a.image, userSpecifiedImage: a.image})
      await (deps.serializePulls ? deps.serializePulls(pull) : pull())
    } catch (err) {
      const permanent = err instanceof CriError && err.code === 'NotFound'
      for (const c of a.containers) {
        failures.push({container: c, reason: 'ErrImagePull', message: `failed to pull image "${a.image}": ${errorMessage(err)}`, permanent})
      }
    }
  }
  return failures
}
