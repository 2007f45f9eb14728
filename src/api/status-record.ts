// What the process managing a pod knew about it, kept on disk so that every reader (`get`,
// `describe`, `/pods`, a second `run`) sees the same truth: the kubelet's status manager, with a
// file under --root-dir in place of the API server.
import type {PodStatus} from './types.js'

/** The process that wrote a record. */
export interface StatusWriter {
  command: 'run' | 'watch'
  pid: number
  /** When that process started (ms since the epoch), for people. */
  startedAt: number
  /** The process's start in the kernel's terms (/proc/<pid>/stat): a reused PID is not the same writer. */
  processStart: string
}

export interface StatusRecord {
  apiVersion: 'kube-node.io/v1'
  kind: 'PodStatusRecord'
  uid: string
  name: string
  namespace: string
  writer: StatusWriter
  /** When the status was computed (ms since the epoch). */
  at: number
  /** The manifest version it describes (the pod's config hash). */
  manifestHash: string
  status: PodStatus
  /** Container name → when its back-off ends (ms since the epoch). */
  backOffUntil?: Record<string, number>
  /** The last sync's error, when it failed. */
  lastSyncError?: {message: string; at: number}
}
