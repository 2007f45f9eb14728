// `version`: kube-node's own version and the runtime's (CRI Version).
import type {VersionInfo} from '../cri/api.js'
import type {RuntimeService} from '../cri/port.js'

export interface VersionReport {
  kubeNode: string
  runtime?: VersionInfo
  runtimeError?: string
}

export async function versions(runtime: Pick<RuntimeService, 'version'>, kubeNodeVersion: string): Promise<VersionReport> {
  try {
    return {kubeNode: kubeNodeVersion, runtime: await runtime.version()}
  } catch (err) {
    return {kubeNode: kubeNodeVersion, runtimeError: err instanceof Error ? err.message : String(err)}
  }
}
