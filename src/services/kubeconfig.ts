// `kubeconfig`: a kubeconfig that points kubectl at the running watch's read-only API over TLS,
// with the certificate to trust and the bearer token that logs and events need
// (api-credential.ts). It is a secret: only root can read the credential in the root dir, and
// whoever holds this output can read every container's log until watch restarts.
import {runningApiAddress} from '../node/api-address.js'
import {readApiCredential, type ApiCredential} from '../node/api-credential.js'
import {NotFoundError} from '../util/errors.js'

export interface Kubeconfig {
  apiVersion: 'v1'
  kind: 'Config'
  clusters: Array<{name: string; cluster: {server: string; 'certificate-authority-data': string}}>
  contexts: Array<{name: string; context: {cluster: string; user: string; namespace: string}}>
  'current-context': string
  users: Array<{name: string; user: {token: string}}>
  preferences: Record<string, never>
}

/** Pure: the kubeconfig for a server URL, its credential and a node name. */
export function buildKubeconfig(server: string, credential: ApiCredential, nodeName: string): Kubeconfig {
  const name = `kube-node-${nodeName}`
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{name, cluster: {server, 'certificate-authority-data': Buffer.from(credential.certificate).toString('base64')}}],
    contexts: [{name, context: {cluster: name, user: name, namespace: 'default'}}],
    'current-context': name,
    users: [{name, user: {token: credential.token}}],
    preferences: {},
  }
}

export async function kubeconfigFor(rootDir: string, nodeName: string): Promise<Kubeconfig> {
  const addr = await runningApiAddress(rootDir)
  if (!addr) throw new NotFoundError(`no kube-node watch with a Kubernetes API is running with root dir ${rootDir} (start \`kube-node watch\` with a --port other than 0)`)
  const credential = await readApiCredential(rootDir)
  if (credential === undefined) throw new NotFoundError(`the kube-node watch running with root dir ${rootDir} has no readable credential (${rootDir}/kube-node.credential, 0600 and this user's); run kubeconfig as the user that runs watch, or restart watch`)
  return buildKubeconfig(addr.server, credential, nodeName)
}
