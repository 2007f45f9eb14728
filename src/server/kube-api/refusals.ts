// Why a request the read-only API will not serve is refused, in words that say what to do
// instead. Pure.
import {failure, type KubeStatus} from './status.js'

const INSTEAD: Readonly<Record<string, string>> = {
  exec: 'use `kube-node exec POD -- CMD` on the node',
  attach: 'read the output with `kubectl logs -f` instead',
  portforward: 'reach the pod on its IP from the node instead',
  proxy: 'reach the pod on its IP from the node instead',
  eviction: 'remove the manifest from the watched directory instead',
  binding: 'static pods are bound to this node already',
}

export function subresourceRefusal(sub: string, name: string): KubeStatus {
  const what = `pods/${sub}`
  const instead = INSTEAD[sub]
  if (instead === undefined) return failure('NotFound', `the server could not find the requested resource (${what} is not served by kube-node)`, {name, kind: 'pods'})
  return failure('MethodNotAllowed', `${what} is not supported by kube-node's read-only API: ${instead}`, {name, kind: 'pods'})
}

export function writeRefusal(method: string): KubeStatus {
  return failure(
    'MethodNotAllowed',
    // Never `kube-node delete pod`: the watch serving this API would start the pod again.
    `${method} is not allowed: kube-node serves a read-only API; its pods come from manifests (change or remove a pod's manifest where kube-node watch reads it, and the pod follows)`,
  )
}
