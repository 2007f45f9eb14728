// What watch's Kubernetes API serves, from the readers the commands use: pods from `get pods`
// (recorded status merged with the runtime's, the one truth), events from `events`, logs from
// `logs`. Nothing here is specific to HTTP.
import type {KubeNode} from '../../node/create-node.js'
import type {KubeApiData} from '../../server/kube-api/types.js'
import {getPods} from '../get.js'
import {listEvents} from '../events.js'
import {containerLog} from '../logs.js'

/** Go's name of this machine's architecture, for /version. */
function goArch(arch: string): string {
  return arch === 'x64' ? 'amd64' : arch === 'ia32' ? '386' : arch
}

export function kubeApiData(node: KubeNode, kubeNodeVersion: string): KubeApiData {
  return {
    pods: async () => (await getPods(node)).items,
    events: async () => (await listEvents(node)).items,
    log: (req, write, signal) =>
      containerLog(
        node,
        {
          pod: req.name,
          namespace: req.namespace,
          ...(req.container !== undefined ? {container: req.container} : {}),
          previous: req.previous,
          follow: req.follow,
          timestamps: req.timestamps,
          ...(req.tail !== undefined ? {tail: req.tail} : {}),
          signal,
        },
        write,
      ),
    kubeNodeVersion,
    platform: `linux/${goArch(process.arch)}`,
  }
}
