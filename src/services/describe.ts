// `describe pod`: pods as every reader sees them (the recorded status while it describes the
// runtime) with their events, for the kubectl-style renderer.
import type {EventList, Pod} from '../api/types.js'
import type {KubeNode} from '../node/create-node.js'
import {listEvents} from './events.js'
import {selectMany, selectOne, type SelectedPod} from './query/select-pods.js'
import type {PodQuery, PodRef} from './query/pod-query.js'

export interface PodDescription {
  pod: Pod
  events: EventList
  nodeName: string
  hostIP: string
}

async function described(node: KubeNode, s: SelectedPod): Promise<PodDescription> {
  const events = await listEvents(node, {uids: [s.managed.observed.uid]})
  return {pod: s.pod, events, nodeName: node.config.nodeName, hostIP: node.sync.deps.hostIP ?? ''}
}

/** One pod by name (NotFound, or Ambiguous when the name is in several namespaces). */
export async function describePod(node: KubeNode, ref: PodRef): Promise<PodDescription> {
  return described(node, await selectOne(node, ref))
}

/** Every pod the query selects (kubectl's `describe pods -l …`). */
export async function describePods(node: KubeNode, query: PodQuery): Promise<PodDescription[]> {
  return Promise.all((await selectMany(node, query)).map((s) => described(node, s)))
}
