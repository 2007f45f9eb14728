// Gathers what /metrics/resource shows: one ListContainerStats call, the runtime cache's view of
// kube-node's pods, and the node's /proc figures. The endpoint needs no credential, so any local
// user could make it ask the runtime for every container's stats as fast as it can send requests
// (about 100 calls a second on this machine); scrapes within a second of each other therefore
// share one answer, and the runtime is asked at most once a second, whatever the scrapers do.
import type {RuntimeService} from '../cri/port.js'
import type {ContainerStats} from '../cri/api.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {Clock} from '../util/clock.js'
import {errorMessage} from '../util/errors.js'
import {sharedRecent} from '../util/shared-recent.js'
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

/** Scrapes within this long of one another get the same answer (Prometheus scrapes every 10 s or more). */
export const RESOURCE_SCRAPE_SHARED_MS = 1000

/** The body of /metrics/resource. */
export function resourceMetrics(deps: ResourceCollectorDeps): () => Promise<string> {
  return sharedRecent(() => scrape(deps), RESOURCE_SCRAPE_SHARED_MS, () => deps.clock.now())
}

async function scrape(deps: ResourceCollectorDeps): Promise<string> {
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
