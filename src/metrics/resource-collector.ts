// Gathers what /metrics/resource shows at each scrape: one ListContainerStats call, the runtime
// cache's view of kube-node's pods, and the node's /proc figures. Nothing is kept between scrapes.
import type {RuntimeService} from '../cri/port.js'
import type {ContainerStats} from '../cri/api.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {Clock} from '../util/clock.js'
import {errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import {readNodeUsage, type ReadText} from './node-usage.js'
import {renderResourceMetrics} from './resources.js'

export interface ResourceCollectorDeps {
  runtime: Pick<RuntimeService, 'listContainerStats'>
  /** kube-node's pods on this node, as the runtime cache has them. */
  pods: () => RuntimePod[]
  readText: ReadText
  clock: Clock
  logger: Logger
}

/** The body of /metrics/resource. */
export function resourceMetrics(deps: ResourceCollectorDeps): () => Promise<string> {
  return async () => {
    const [stats, node] = await Promise.all([
      deps.runtime.listContainerStats().catch((err: unknown): ContainerStats[] | undefined => {
        deps.logger.warn('Could not get container stats for /metrics/resource', {error: errorMessage(err)})
        return undefined
      }),
      readNodeUsage(deps.readText),
    ])
    const nodeAt = deps.clock.now()
    try {
      return renderResourceMetrics({node, nodeAt, pods: deps.pods(), stats: Array.isArray(stats) ? stats : undefined})
    } catch (err) {
      // Stats the runtime sent malformed (an entry that is no object, …) are a scrape error, as a
      // failed call is, never a 500 or a crash of the scrape.
      deps.logger.warn('Could not read the container stats for /metrics/resource', {error: errorMessage(err)})
      return renderResourceMetrics({node, nodeAt, pods: [], stats: undefined})
    }
  }
}
