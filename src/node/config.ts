// NodeConfig: everything the core needs to know about this node, built once from flags and the
// KubeletConfiguration file by the commands, then passed down. The core never reads process.*.
import type {ValidationMode} from '../manifest/unknown-fields.js'

export interface NodeConfig {
  nodeName: string
  /** Pod data dirs (emptyDir volumes), state and the lock file live here. */
  rootDir: string
  /** Sandbox log directories are created under this (kubelet default /var/log/pods). */
  podLogsDir: string
  runtimeEndpoint: string
  imageEndpoint: string
  /** Deadline of every CRI call except image pulls, in milliseconds. */
  runtimeRequestTimeoutMs: number
  /** Host resolv.conf used for dnsPolicy Default and host-network ClusterFirst pods. */
  resolvConf: string
  clusterDNS: string[]
  clusterDomain: string
  /** Most pods admitted (kubelet maxPods); default DEFAULT_MAX_PODS. */
  maxPods?: number
  /** Pull images one at a time (kubelet serializeImagePulls, default true). */
  serializeImagePulls?: boolean
  /**
   * Containers without a seccomp profile get RuntimeDefault (kubelet seccompDefault). kube-node's
   * default is true, where the kubelet's is false: a root daemon should not run pods unconfined
   * unless asked; `seccompDefault: false` gives the kubelet's behaviour.
   */
  seccompDefault?: boolean | undefined
  /** The crash-loop back-off's ceiling (kubelet crashLoopBackOff.maxContainerRestartPeriod); default 300s. */
  maxContainerRestartPeriodMs?: number | undefined
  /** How many pods are synced at the same time. */
  parallelism: number
  /** Unknown manifest fields (`--validate`): errors (default), warnings, or ignored. */
  validate?: ValidationMode | undefined
}

export const DEFAULT_RUNTIME_ENDPOINT = 'unix:///run/containerd/containerd.sock'
export const DEFAULT_ROOT_DIR = '/var/lib/kube-node'
export const DEFAULT_POD_LOGS_DIR = '/var/log/pods'
export const DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS = 2 * 60 * 1000
export {DEFAULT_MAX_PODS} from '../util/node-info.js'
