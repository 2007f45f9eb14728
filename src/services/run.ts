// `run`: load and validate every manifest first (nothing changes in the runtime if any is
// invalid), then converge them all once and wait for their goal (the sync path records each
// admitted pod's manifest as pod.json before its first effect). The runtime is read while the
// manifests load: a read changes nothing, and the start of a one-pod run is then shorter by it.
import type {KubeNode} from '../node/create-node.js'
import {loadStaticPods} from '../manifest/load.js'
import {manifestLoadOptions} from '../node/load-options.js'
import {createObjectStore} from '../manifest/object-store.js'
import {runningPodSpecs} from './pods/managed-pods.js'
import type {StaticPod} from '../api/types.js'
import {retryUntil} from '../util/retry.js'
import {errorMessage} from '../util/errors.js'
import {readNodeInfo} from '../host/node-info.js'
import {DEFAULT_MAX_PODS} from '../node/config.js'
import {runOnce, type PodRunResult, type ProgressEvent, type WaitFor} from '../loop/run-once.js'
import {StatusStore} from '../store/status-store.js'
import {currentWriter} from '../node/process-identity.js'
import {seedBackOff} from './seed-back-off.js'
import {refuseUnderWatch} from './watch-guard.js'

export interface RunOptions {
  wait: WaitFor
  timeoutMs: number
  /** How long containers must have run steadily to count (run-once.ts). */
  stableForMs?: number
  signal?: AbortSignal | undefined
}

export async function runPods(
  node: KubeNode,
  locations: string[],
  opts: RunOptions,
  onProgress?: (e: ProgressEvent) => void,
): Promise<PodRunResult[]> {
  // Both reads serve every pod's first sync (runtime-cache.ts): the pods, and the images that
  // every first sync looks at. An error is seen where the read is awaited, after the manifests.
  const readsFrom = node.clock.now()
  let early: Promise<StaticPod[]> | undefined = runningPodSpecs(node)
  for (const read of [early, node.cache.images(readsFrom - 1)]) read.catch(() => undefined)
  const {pods, configMaps, secrets} = await loadStaticPods(locations, manifestLoadOptions(node.config, node.logger))
  await refuseUnderWatch(node, 'run', pods)
  const objects = createObjectStore(configMaps, secrets)
  // Pods already running on this node that this run does not own count for admission (ports,
  // resources, max pods).
  const ours = new Set(pods.map((p) => p.pod.metadata.uid))
  // The runtime may be restarting: wait for it, within the run's own timeout.
  const deadline = node.clock.now() + opts.timeoutMs
  const listed = await retryUntil(() => {
    const read = early ?? runningPodSpecs(node)
    early = undefined
    return read
  }, {
    deadline,
    clock: node.clock,
    signal: opts.signal,
    onError: (err) => onProgress?.({pod: '', kind: 'waiting', text: `runtime not reachable, retrying: ${errorMessage(err)}`}),
  })
  const running = listed.filter((sp) => !ours.has(sp.pod.metadata.uid))
  // The read above is the cache's: pods another process backs off stay backed off.
  await seedBackOff(node, pods)
  const admission = {node: readNodeInfo(node.config.nodeName, node.config.maxPods ?? DEFAULT_MAX_PODS), running}
  // Each step is shown as it begins (pulling, creating the sandbox, starting a container).
  const onStep = onProgress && ((pod: string, text: string): void => onProgress({pod, kind: 'action', text}))
  // While it runs, `run` is the pods' manager: what it learns is recorded for every other reader.
  const statusRecorder = new StatusStore({fs: node.fs, rootDir: node.config.rootDir, clock: node.clock, logger: node.logger, podDirs: node.podDirs}, currentWriter('run'))
  try {
    return await runOnce(
      node.sync,
      pods,
      {wait: opts.wait, timeoutMs: Math.max(0, deadline - node.clock.now()), stableForMs: opts.stableForMs ?? 0, parallelism: node.config.parallelism, admission, firstReadAfter: readsFrom - 1, signal: opts.signal, statusRecorder},
      {objects, onStep},
      onProgress,
    )
  } finally {
    await Promise.all([statusRecorder.flush(), node.events.flush()])
  }
}
