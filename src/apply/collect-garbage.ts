// Garbage collection's effect, shared by `watch` (every gcIntervalMs, sync-loop.ts) and `run` (each
// pod once it reached its outcome, run-once.ts): the pure planner (decide/gc.ts) picks what the
// kubelet's GC would drop, this removes it. Old sandboxes are kept by the sync itself
// (create-sandbox.ts) for the pod's history; only this removes them, so nothing piles up.
import type {RuntimeService} from '../cri/port.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {Logger} from '../util/logger.js'
import {planGarbage, type Garbage} from '../decide/gc.js'

export interface GarbageDeps {
  runtime: RuntimeService
  logger: Logger
}

/**
 * Removes the dead containers and sandboxes of the `wanted` pods that GC does not keep. The caller
 * passes only pods no sync is changing at the time. Something already gone counts as removed.
 */
export async function removeGarbage(deps: GarbageDeps, pods: readonly RuntimePod[], wanted: ReadonlySet<string>): Promise<Garbage> {
  const garbage = planGarbage(pods, wanted)
  const {runtime} = deps
  // Containers first, as the kubelet's GC; the planner never picks a sandbox a kept container is in.
  for (const id of garbage.containers) await runtime.removeContainer(id)
  for (const id of garbage.sandboxes) {
    // Stopping a notready sandbox again releases what its network may still hold; it is cheap.
    await runtime.stopPodSandbox(id)
    await runtime.removePodSandbox(id)
  }
  if (garbage.containers.length + garbage.sandboxes.length > 0) {
    deps.logger.debug(2, 'Collected garbage', {containers: garbage.containers.length, sandboxes: garbage.sandboxes.length})
  }
  return garbage
}
