// The pod as every reader shows it (get, describe, the API): the status the managing process
// recorded while it still describes the runtime's containers, else the status the runtime alone gives.
import type {Pod} from '../../api/types.js'
import type {StatusRecord, StatusWriter} from '../../api/status-record.js'
import type {KubeNode} from '../../node/create-node.js'
import {generatePodStatus} from '../../status/generate.js'
import {mergeStatus} from '../../status/merge.js'
import {rfc3339} from '../../status/container-status.js'
import {podConfigHash} from '../../kuberuntime/hash.js'
import type {ManagedPod} from './managed-pods.js'
import {writerRunning} from '../../node/process-identity.js'
import {readManifestError} from './manifest-error-file.js'
import {withManifestError} from '../../status/manifest-error.js'

/** Where a pod's status came from: `recorded` (by its manager) or `runtime` (the runtime alone). */
export const STATUS_SOURCE_ANNOTATION = 'kube-node.io/status-source'
/** Who recorded the status last, when, and whether that process still runs. */
export const STATUS_WRITER_ANNOTATION = 'kube-node.io/status-writer'

export function describeWriter(record: StatusRecord, running: (w: StatusWriter) => boolean = writerRunning): string {
  const w = record.writer
  const state = running(w) ? 'running' : 'not running'
  return `${w.command} (pid ${w.pid}, ${state}), ${rfc3339(record.at) ?? 'unknown time'}`
}

/** writerRunning asked once per writer: the pods one process manages share it. */
export function writerRunningOnce(): (w: StatusWriter) => boolean {
  const known = new Map<string, boolean>()
  return (w) => {
    const key = `${w.pid}/${w.processStart}`
    const running = known.get(key) ?? writerRunning(w)
    known.set(key, running)
    return running
  }
}

/** The pod as every reader shows it. */
export function podView(node: KubeNode, p: ManagedPod, running: (w: StatusWriter) => boolean = writerRunning): Pod {
  const hostIP = node.sync.deps.hostIP
  const runtimeStatus = generatePodStatus({sp: p.sp, runtime: p.observed, probes: new Map(), waiting: new Map(), hostIP, now: node.clock.now()})
  const {status, source} = mergeStatus({record: p.record, runtime: p.observed, runtimeStatus, manifestHash: podConfigHash(p.sp.pod)})
  const annotations: Record<string, string> = {...(p.sp.pod.metadata.annotations ?? {}), [STATUS_SOURCE_ANNOTATION]: source}
  if (p.record) annotations[STATUS_WRITER_ANNOTATION] = describeWriter(p.record, running)
  const pod: Pod = {apiVersion: 'v1', kind: 'Pod', metadata: {...p.sp.pod.metadata, annotations}, spec: p.sp.pod.spec, status}
  // A watch that runs the last good version of a broken manifest says so (manifest-errors.ts).
  const broken = readManifestError(node.config.rootDir, p.observed.uid)
  return broken && running(broken.writer) ? withManifestError(pod, broken) : pod
}

