// `run`: load and validate every manifest first (nothing touches the runtime if any is invalid),
// remember each pod's manifest, then converge them all once and wait for their goal.
import type {KubeNode} from './create-node.js'
import {loadStaticPods} from '../manifest/load.js'
import {savePod} from './pod-store.js'
import {createObjectStore} from '../manifest/object-store.js'
import {runOnce, type PodRunResult, type ProgressEvent, type WaitFor} from '../sync/run-once.js'

export interface RunOptions {
  wait: WaitFor
  timeoutMs: number
  signal?: AbortSignal
}

export async function runPods(
  node: KubeNode,
  locations: string[],
  opts: RunOptions,
  onProgress?: (e: ProgressEvent) => void,
): Promise<PodRunResult[]> {
  const {pods, configMaps, secrets} = await loadStaticPods(locations, {nodeName: node.config.nodeName})
  node.sync.deps.objects = createObjectStore(configMaps, secrets)
  for (const sp of pods) await savePod(node.config.rootDir, sp)
  return runOnce(
    node.sync,
    pods,
    {wait: opts.wait, timeoutMs: opts.timeoutMs, parallelism: node.config.parallelism, ...(opts.signal ? {signal: opts.signal} : {})},
    onProgress,
  )
}
