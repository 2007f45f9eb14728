// `down` and `delete pod`: the terminating path for pods chosen by manifest, by name, or all of
// kube-node's pods. Pods kube-node did not create are never touched (readRuntimePods only sees
// sandboxes with kube-node's label).
import type {KubeNode} from '../node/create-node.js'
import {loadStaticPods} from '../manifest/load.js'
import {manifestLoadOptions} from '../node/load-options.js'
import {listManagedPods, type ManagedPod} from './pods/managed-pods.js'
import {selectMany} from './query/select-pods.js'
import {resolveOne, type PodQuery, type PodRef} from './query/pod-query.js'
import {terminatePod} from '../apply/terminate.js'
import {refuseUnderWatch} from './watch-guard.js'

export type DownSelector = {locations: string[]} | {all: true} | {names: PodRef[]} | {query: PodQuery}

export interface DownResult {
  /** Full names of the pods that were stopped and removed. */
  removed: string[]
}

async function select(node: KubeNode, sel: DownSelector): Promise<ManagedPod[]> {
  if ('query' in sel) return (await selectMany(node, sel.query)).map((s) => s.managed)
  const pods = await listManagedPods(node)
  if ('all' in sel) return pods
  if ('names' in sel) {
    // Every name is resolved before anything stops: a typo or an ambiguous name deletes nothing.
    const candidates = pods.map((p) => ({name: p.observed.name, namespace: p.observed.namespace, manifestName: p.sp.manifestName, p}))
    const chosen = sel.names.map((ref) => resolveOne(candidates, ref).p)
    return [...new Set(chosen)]
  }
  // Only the pods' names matter here: unknown fields, or more pods than the node runs, must not
  // keep a user from stopping pods.
  const {pods: wanted} = await loadStaticPods(sel.locations, {...manifestLoadOptions(node.config, node.logger, 'ignore'), maxPods: undefined})
  const uids = new Map(wanted.map((sp) => [sp.pod.metadata.uid, sp]))
  return pods.filter((p) => uids.has(p.observed.uid)).map((p) => ({...p, sp: uids.get(p.observed.uid)!}))
}

export async function downPods(node: KubeNode, sel: DownSelector): Promise<DownResult> {
  const pods = await select(node, sel)
  await refuseUnderWatch(node, 'names' in sel || 'query' in sel ? 'delete' : 'down', pods.map((p) => p.sp))
  await Promise.all(pods.map((p) => terminatePod(node.sync.deps, p.observed, p.sp.pod)))
  return {removed: pods.map((p) => p.observed.name)}
}
