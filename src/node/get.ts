// `get pods`: kube-node's pods read from the runtime, with kubelet-style status, as a v1 PodList.
import type {Pod, PodList} from '../api/types.js'
import type {KubeNode} from './create-node.js'
import {generatePodStatus} from '../status/generate.js'
import {probeOnce} from '../prober/probe-once.js'
import {listManagedPods, matchesName} from './pods.js'
import {NotFoundError} from '../util/errors.js'

export async function getPods(node: KubeNode, name?: string): Promise<PodList> {
  let pods = await listManagedPods(node)
  if (name) {
    pods = pods.filter((p) => matchesName(p, name))
    if (pods.length === 0) throw new NotFoundError(`pod "${name}" not found`)
  }
  const hostIP = node.sync.deps.hostIP ?? ''
  const items: Pod[] = (
    await Promise.all(
      pods.map(async ({sp, observed}): Promise<Pod> => {
        const probes = await probeOnce(node.runtime, sp, observed, hostIP)
        return {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: sp.pod.metadata,
          spec: sp.pod.spec,
          status: generatePodStatus({sp, runtime: observed, probes, waiting: new Map(), hostIP}),
        }
      }),
    )
  )
    .sort((a, b) => `${a.metadata?.namespace}/${a.metadata?.name}`.localeCompare(`${b.metadata?.namespace}/${b.metadata?.name}`))
  return toPodList(items)
}

/** A `v1` PodList, as `kubectl get pods -o json` users expect. */
export function toPodList(items: Pod[]): PodList {
  return {apiVersion: 'v1', kind: 'PodList', metadata: {resourceVersion: ''}, items}
}
