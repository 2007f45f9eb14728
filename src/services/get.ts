// `get pods`: kube-node's pods as a v1 PodList (or one Pod when named), each as every reader
// shows it (pod-view.ts). Never runs a probe: readiness is what the manager's probers concluded.
import type {Pod, PodList} from '../api/types.js'
import type {KubeNode} from '../node/create-node.js'
import {selectMany, selectOne} from './query/select-pods.js'
import type {PodQuery, PodRef} from './query/pod-query.js'

/** Every pod of the node (what the API serves), sorted by namespace and name. */
export async function getPods(node: KubeNode, query: PodQuery = {}): Promise<PodList> {
  return toPodList((await selectMany(node, query, {unlessRecorded: true})).map((s) => s.pod))
}

/** The one pod a name (and -n) names, as `kubectl get pod NAME -o json` prints it. */
export async function getPod(node: KubeNode, ref: PodRef): Promise<Pod> {
  return (await selectOne(node, ref, {unlessRecorded: true})).pod
}

/** A `v1` PodList, as `kubectl get pods -o json` users expect. */
export function toPodList(items: Pod[]): PodList {
  return {apiVersion: 'v1', kind: 'PodList', metadata: {resourceVersion: ''}, items}
}
