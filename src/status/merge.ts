// Which status a reader shows: the one the managing process recorded while it still describes
// what the runtime has (the same container instances, in the same states), else the status the
// runtime alone gives. Never a stale claim, never a probe. Pure.
import type {ContainerStatus, PodStatus} from '../api/types.js'
import type {StatusRecord} from '../api/status-record.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {allByName} from '../pod/restart-policy.js'
import {runtimeContainerId} from './container-status.js'

export type StatusSource = 'recorded' | 'runtime'

/**
 * True when every container the record speaks of is, in the runtime, the instance and state it
 * says. `runtimeStatus`, the runtime's own view, vouches for one case more: a container whose edit
 * is not applied yet (its image cannot be pulled) is waiting in both while its old instance runs.
 */
export function recordDescribesRuntime(record: StatusRecord, runtime: RuntimePod | undefined, manifestHash: string, runtimeStatus?: PodStatus): boolean {
  if (record.manifestHash !== manifestHash) return false
  const recorded: ContainerStatus[] = [...(record.status.initContainerStatuses ?? []), ...(record.status.containerStatuses ?? [])]
  const containers = runtime?.containers ?? []
  if (containers.some((c) => !recorded.some((cs) => cs.name === c.name))) return false
  return recorded.every((cs) => {
    const [newest] = allByName(containers, cs.name)
    if (cs.containerID === undefined) return newest === undefined
    if (newest === undefined || runtimeContainerId(newest.id) !== cs.containerID) return false
    const recordedRunning = cs.state?.running !== undefined
    if (recordedRunning === (newest.state === 'running')) return true
    const viewed = [...(runtimeStatus?.initContainerStatuses ?? []), ...(runtimeStatus?.containerStatuses ?? [])].find((v) => v.name === cs.name)
    return !recordedRunning && newest.state === 'running' && viewed?.state?.waiting !== undefined && viewed.containerID === cs.containerID
  })
}

export interface MergeInput {
  record: StatusRecord | undefined
  runtime: RuntimePod | undefined
  /** The status the runtime alone gives (no probe results, no waiting reasons). */
  runtimeStatus: PodStatus
  manifestHash: string
}

export function mergeStatus(input: MergeInput): {status: PodStatus; source: StatusSource} {
  const {record} = input
  if (record && recordDescribesRuntime(record, input.runtime, input.manifestHash, input.runtimeStatus)) return {status: record.status, source: 'recorded'}
  return {status: input.runtimeStatus, source: 'runtime'}
}
