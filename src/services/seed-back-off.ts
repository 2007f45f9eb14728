// A `run` or `plan` beside a pod another process manages (a `watch`, an earlier `run`) starts from
// what that process recorded: a container it was backing off stays backed off until the recorded
// time, instead of being restarted at once and shown as if nothing had happened; and the pod's
// instance keeps the start that process stamped (status.startTime, the active deadline's window).
import type {StaticPod} from '../api/types.js'
import {backOffKey, pullBackOffKey} from '../loop/sync-pod.js'
import {recordDescribesRuntime} from '../status/merge.js'
import {readStatusRecord} from '../store/status-store.js'
import {podConfigHash} from '../kuberuntime/hash.js'
import type {KubeNode} from '../node/create-node.js'
import type {StatusRecord} from '../api/status-record.js'

function imageOf(sp: StaticPod, name: string): string {
  return [...(sp.pod.spec.initContainers ?? []), ...sp.pod.spec.containers].find((c) => c.name === name)?.image ?? ''
}

export async function seedBackOff(node: KubeNode, pods: readonly StaticPod[]): Promise<void> {
  const now = node.clock.now()
  await Promise.all(
    pods.map(async (sp) => {
      const record = await readStatusRecord(node.fs, node.config.rootDir, sp.pod.metadata.uid).catch(() => undefined)
      if (record) restoreInstanceStart(node, record)
      if (!record?.backOffUntil || !recordDescribesRuntime(record, node.cache.get(sp.pod.metadata.uid), podConfigHash(sp.pod))) return
      const statuses = [...(record.status.initContainerStatuses ?? []), ...(record.status.containerStatuses ?? [])]
      for (const [name, until] of Object.entries(record.backOffUntil)) {
        const reason = statuses.find((c) => c.name === name)?.state?.waiting?.reason
        if (reason === 'CrashLoopBackOff') node.sync.backOff.restore(backOffKey(sp.pod.metadata.uid, name, sp.facts), until, now, reason)
        if (reason === 'ImagePullBackOff') node.sync.backOff.restore(pullBackOffKey(sp.pod.metadata.uid, imageOf(sp, name)), until, now, reason)
      }
    }),
  )
}

/** The start of the instance a record describes, for a process that takes the pod over. */
export function restoreInstanceStart(node: KubeNode, record: StatusRecord): void {
  const start = record.status.startTime === undefined ? Number.NaN : Date.parse(record.status.startTime)
  if (record.manifestHash) node.sync.instanceStarts?.restore(record.uid, record.manifestHash, start)
}
