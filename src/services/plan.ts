// `plan` and `run --dry-run`: what run would do, computed against the runtime's current state.
// Reads only; never changes the runtime or the root dir. The plan does not depend on the
// manifests' ConfigMaps and Secrets: those are read when a container is started.
import type {StaticPod} from '../api/types.js'
import type {PodActions} from '../decide/actions.js'
import type {KubeNode} from '../node/create-node.js'
import {loadStaticPods} from '../manifest/load.js'
import {manifestLoadOptions} from '../node/load-options.js'
import {planPod} from '../loop/sync-pod.js'
import {seedBackOff} from './seed-back-off.js'
import {startOrder} from '../loop/start-order.js'

export interface PodPlan {
  sp: StaticPod
  plan: PodActions
  /** Start-after: the pods that must be Ready before this one is created (it has no sandbox yet). */
  waitsFor?: readonly string[] | undefined
}

export async function planPods(node: KubeNode, locations: string[]): Promise<PodPlan[]> {
  const {pods} = await loadStaticPods(locations, manifestLoadOptions(node.config, node.logger))
  // One read of the runtime, begun now, serves every pod; what another process backs off stays so.
  const now = node.clock.now()
  await node.cache.refresh()
  await seedBackOff(node, pods)
  // Shown in the order run creates them: each pod after the pods it starts after.
  const ordered = startOrder(pods.map((sp) => ({sp})))
  return Promise.all(
    ordered.map(async ({sp}) => {
      const {plan, observed} = await planPod(node.sync, sp, now - 1)
      const startAfter = sp.startAfter ?? []
      const gated = startAfter.length > 0 && (observed?.sandboxes.length ?? 0) === 0
      return gated ? {sp, plan, waitsFor: startAfter} : {sp, plan}
    }),
  )
}
