// `kubeconfig`: a kubeconfig that points kubectl at the running watch's read-only API. No
// credentials: the API is unauthenticated and, by default, reachable from this machine only.
import {runningApiAddress} from './api-address.js'
import {NotFoundError} from '../util/errors.js'

export interface Kubeconfig {
  apiVersion: 'v1'
  kind: 'Config'
  clusters: Array<{name: string; cluster: {server: string}}>
  contexts: Array<{name: string; context: {cluster: string; user: string; namespace: string}}>
  'current-context': string
  users: Array<{name: string; user: Record<string, never>}>
  preferences: Record<string, never>
}

/** Pure: the kubeconfig for a server URL and node name. */
export function buildKubeconfig(server: string, nodeName: string): Kubeconfig {
  const name = `kube-node-${nodeName}`
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{name, cluster: {server}}],
    contexts: [{name, context: {cluster: name, user: name, namespace: 'default'}}],
    'current-context': name,
    users: [{name, user: {}}],
    preferences: {},
  }
}

export async function kubeconfigFor(rootDir: string, nodeName: string): Promise<Kubeconfig> {
  const addr = await runningApiAddress(rootDir)
  if (!addr) throw new NotFoundError(`no kube-node watch with a Kubernetes API is running with root dir ${rootDir} (start \`kube-node watch\` with a --port other than 0)`)
  return buildKubeconfig(addr.server, nodeName)
}
