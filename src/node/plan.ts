// `plan` and `run --dry-run`: what run would do, computed against the runtime's current state.
// Reads only; never changes the runtime or the root dir.
import type {StaticPod} from '../api/types.js'
import type {PodActions} from '../decide/actions.js'
import type {KubeNode} from './create-node.js'
import {loadStaticPods} from '../manifest/load.js'
import {processManifestIO} from './manifest-io.js'
import {planPod} from '../loop/sync-pod.js'
import {createObjectStore} from '../manifest/object-store.js'

export interface PodPlan {
  sp: StaticPod
  plan: PodActions
}

export async function planPods(node: KubeNode, locations: string[]): Promise<PodPlan[]> {
  const {pods, configMaps, secrets} = await loadStaticPods(locations, {nodeName: node.config.nodeName, clusterDomain: node.config.clusterDomain, io: processManifestIO()})
  node.sync.deps.objects = createObjectStore(configMaps, secrets)
  return Promise.all(pods.map(async (sp) => ({sp, plan: (await planPod(node.sync, sp)).plan})))
}
