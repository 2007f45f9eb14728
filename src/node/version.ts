// `version`: kube-node's own version and the runtime's (CRI Version).
import type {VersionInfo} from '../cri/api.js'
import type {KubeNode} from './create-node.js'

export interface VersionReport {
  kubeNode: string
  runtime?: VersionInfo
  runtimeError?: string
}

export async function versions(node: KubeNode, kubeNodeVersion: string): Promise<VersionReport> {
  try {
    return {kubeNode: kubeNodeVersion, runtime: await node.runtime.version()}
  } catch (err) {
    return {kubeNode: kubeNodeVersion, runtimeError: err instanceof Error ? err.message : String(err)}
  }
}
