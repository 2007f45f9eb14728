// `down` and `delete pod`: the terminating path for pods chosen by manifest, by name, or all of
// kube-node's pods. Pods kube-node did not create are never touched (readRuntimePods only sees
// sandboxes with kube-node's label).
import type {KubeNode} from './create-node.js'
import {loadStaticPods} from '../manifest/load.js'
import {manifestLoadOptions} from './load-options.js'
import {listManagedPods, matchesName, type ManagedPod} from './pods.js'
import {terminatePod} from '../apply/terminate.js'
import {NotFoundError} from '../util/errors.js'
import {refuseUnderWatch} from './watch-guard.js'

export type DownSelector = {locations: string[]} | {all: true} | {names: string[]}

export interface DownResult {
  /** Full names of the pods that were stopped and removed. */
  removed: string[]
}

async function select(node: KubeNode, sel: DownSelector): Promise<ManagedPod[]> {
  const pods = await listManagedPods(node)
  if ('all' in sel) return pods
  if ('names' in sel) {
    return sel.names.map((n) => {
      const p = pods.find((x) => matchesName(x, n))
      if (!p) throw new NotFoundError(`pod "${n}" not found`)
      return p
    })
  }
  // Only the pods' names matter here: unknown fields, or more pods than the node runs, must not
  // keep a user from stopping pods.
  const {pods: wanted} = await loadStaticPods(sel.locations, {...manifestLoadOptions(node.config, node.logger, 'ignore'), maxPods: undefined})
  const uids = new Map(wanted.map((sp) => [sp.pod.metadata.uid, sp]))
  return pods.filter((p) => uids.has(p.observed.uid)).map((p) => ({...p, sp: uids.get(p.observed.uid)!}))
}

export async function downPods(node: KubeNode, sel: DownSelector): Promise<DownResult> {
  const pods = await select(node, sel)
  await refuseUnderWatch(node, 'names' in sel ? 'delete' : 'down', pods.map((p) => p.sp))
  await Promise.all(pods.map((p) => terminatePod(node.sync.deps, p.observed, p.sp.pod)))
  return {removed: pods.map((p) => p.observed.name)}
}
