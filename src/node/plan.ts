// `plan` and `run --dry-run`: what run would do, computed against the runtime's current state.
// Reads only; never changes the runtime or the root dir. The plan does not depend on the
// manifests' ConfigMaps and Secrets: those are read when a container is started.
import type {StaticPod} from '../api/types.js'
import type {PodActions} from '../decide/actions.js'
import type {KubeNode} from './create-node.js'
import {loadStaticPods} from '../manifest/load.js'
import {manifestLoadOptions} from './load-options.js'
import {planPod} from '../loop/sync-pod.js'
import {seedBackOff} from './seed-back-off.js'

export interface PodPlan {
  sp: StaticPod
  plan: PodActions
}

export async function planPods(node: KubeNode, locations: string[]): Promise<PodPlan[]> {
  const {pods} = await loadStaticPods(locations, manifestLoadOptions(node.config, node.logger))
  // One read of the runtime, begun now, serves every pod; what another process backs off stays so.
  const now = node.clock.now()
  await node.cache.refresh()
  await seedBackOff(node, pods)
  return Promise.all(pods.map(async (sp) => ({sp, plan: (await planPod(node.sync, sp, now - 1)).plan})))
}
