// A kubelet-style v1 PodStatus computed from the desired pod, what the runtime has, probe
// results and the reasons containers are waiting (KUBELET.md §9). Pure: status is computed,
// never stored. `get -o json` and `run --wait` both read it.
import type {Container, ContainerStatus, PodSpec, PodStatus, StaticPod} from '../api/types.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {PodProbeResults} from '../pod/probe-results.js'
import {isSidecar, restartAll} from '../pod/restart-policy.js'
import {podConditions} from './conditions.js'
import {containerStatus, rfc3339} from './container-status.js'
import {podPhase} from './phase.js'
import {DEADLINE_EXCEEDED_MESSAGE, DEADLINE_EXCEEDED_REASON, deadlineExceeded, podStartTime} from '../pod/active-deadline.js'

export interface StatusInput {
  sp: StaticPod
  runtime: RuntimePod | undefined
  probes: PodProbeResults
  /** Container name → why it waits (CrashLoopBackOff, ErrImagePull, ...). */
  waiting: ReadonlyMap<string, {reason: string; message: string}>
  /** The node's IP: shown as hostIP, and as podIP for host-network pods. */
  hostIP?: string | undefined
  /** The time the status describes (for activeDeadlineSeconds); without it no deadline is checked. */
  now?: number | undefined
  /** When the pod's current instance started (its first sync); else its first sandbox's creation. */
  startTime?: number | undefined
}

/**
 * All containers restart in place (KEP-5532, pod/restart-policy.ts): the pod is Pending, as the
 * kubelet reports it, until every regular container of the new run exists; the earlier run's
 * exits must not make it Failed or Succeeded meanwhile.
 */
function restartingAll(spec: PodSpec, containers: RuntimePod['containers']): boolean {
  const again = restartAll(spec, containers)
  return again !== undefined && spec.containers.some((c) => !again.current.some((rc) => rc.name === c.name))
}

export function generatePodStatus(input: StatusInput): PodStatus {
  const {spec} = input.sp.pod
  const runtimeContainers = input.runtime?.containers ?? []
  const sandboxes = input.runtime?.sandboxes ?? []
  const inits = spec.initContainers ?? []
  const defaultReason = inits.length > 0 ? 'PodInitializing' : 'ContainerCreating'
  const statusOf = (c: Container, kind: 'init' | 'sidecar' | 'regular'): ContainerStatus =>
    containerStatus({
      facts: input.sp.facts,
      container: c,
      runtime: runtimeContainers,
      probes: input.probes.get(c.name),
      waiting: input.waiting.get(c.name),
      defaultReason,
      kind,
    })
  const initStatuses = inits.map((c) => statusOf(c, isSidecar(c) ? 'sidecar' : 'init'))
  const statuses = spec.containers.map((c) => statusOf(c, 'regular'))

  const expired = input.now !== undefined && deadlineExceeded(spec, sandboxes, input.now, input.startTime)
  const phase = expired ? 'Failed' : restartingAll(spec, runtimeContainers) ? 'Pending' : podPhase(spec, initStatuses, statuses)
  const readySandboxes = sandboxes.filter((s) => s.state === 'ready')
  // Ready to start containers: one ready sandbox whose network is set up (an IP, or the host's).
  const sandboxReady = sandboxes[0]?.state === 'ready' && readySandboxes.length === 1 && (spec.hostNetwork === true || sandboxes[0].ip !== '')
  const status: PodStatus = {
    phase,
    conditions: podConditions({spec, sandboxReady, initStatuses, statuses, phase}),
    qosClass: input.sp.facts.qosClass,
    containerStatuses: statuses,
  }
  if (expired) {
    status.reason = DEADLINE_EXCEEDED_REASON
    status.message = DEADLINE_EXCEEDED_MESSAGE
  }
  if (initStatuses.length > 0) status.initContainerStatuses = initStatuses

  const hostIP = input.hostIP
  if (hostIP !== undefined && hostIP !== '') {
    status.hostIP = hostIP
    status.hostIPs = [{ip: hostIP}]
  }
  const podIP = spec.hostNetwork === true ? hostIP : readySandboxes[0]?.ip
  if (podIP !== undefined && podIP !== '') {
    status.podIP = podIP
    status.podIPs = [{ip: podIP}]
  }
  // The kubelet stamps startTime at the pod's first sync; a reader of the runtime alone takes the
  // first sandbox's creation.
  const started = podStartTime(sandboxes, input.startTime)
  const startTime = started === undefined ? undefined : rfc3339(started)
  if (startTime !== undefined) status.startTime = startTime
  return status
}
