// `top pods`: the pods' CPU and memory from the runtime's stats (CRI ListContainerStats, the source
// of /metrics/resource). CPU is a rate, so two samples are taken a moment apart, as metrics-server
// scrapes twice before kubectl top has a figure; the arithmetic is in top-usage.ts.
import type {ContainerStats} from '../cri/api.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {NotFoundError} from '../util/errors.js'
import type {KubeNode} from '../node/create-node.js'
import {podUsages, type PodUsage} from './top-usage.js'

/** Time between the two samples: long enough for a steady rate, short enough for a command. */
export const TOP_SAMPLE_INTERVAL_MS = 1000

export interface TopOptions {
  /** Only this pod: the manifest name (web) or the full static-pod name (web-<node>). */
  name?: string | undefined
  /** Only this namespace; all of them when absent. */
  namespace?: string | undefined
  signal?: AbortSignal | undefined
}

export interface TopResult {
  /** Pods with figures, sorted by namespace and name. */
  usages: PodUsage[]
  /** How many pods were asked about (those with a running container among them). */
  considered: number
}

function matches(pod: RuntimePod, opts: TopOptions): boolean {
  if (opts.namespace !== undefined && pod.namespace !== opts.namespace) return false
  return opts.name === undefined || pod.name === opts.name || pod.manifestName === opts.name
}

/**
 * The usage of this node's pods. A NAME that matches no pod is NotFound; a named pod, or a node
 * whose running pods all lack figures, is NotFound too ("no stats"): both exit 1 (CLI.md).
 */
export async function topPods(node: KubeNode, opts: TopOptions): Promise<TopResult> {
  const pods = (await node.cache.refresh()).filter((p) => matches(p, opts))
  const where = opts.namespace === undefined ? '' : ` in namespace "${opts.namespace}"`
  if (opts.name !== undefined && pods.length === 0) throw new NotFoundError(`pod "${opts.name}" not found${where}`)
  const running = pods.filter((p) => p.containers.some((c) => c.state === 'running'))
  if (running.length === 0) {
    if (opts.name !== undefined) throw new NotFoundError(`pod "${opts.name}" has no running container, so it has no stats`)
    return {usages: [], considered: 0}
  }
  const ids = new Set(running.flatMap((p) => p.containers.map((c) => c.id)))
  const sample = async (): Promise<ContainerStats[]> => (await node.runtime.listContainerStats()).filter((s) => ids.has(s.id))
  const before = await sample()
  await node.clock.sleep(TOP_SAMPLE_INTERVAL_MS, opts.signal)
  const after = await sample()
  const usages = podUsages({pods: running, before, after})
  if (usages.length === 0) {
    const what = opts.name !== undefined ? `pod "${opts.name}"` : 'any pod'
    throw new NotFoundError(`the runtime reported no CPU and memory stats for ${what}${where} yet; try again in a few seconds`)
  }
  return {usages, considered: running.length}
}
