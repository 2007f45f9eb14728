// The kubelet-owned pod conditions, in the kubelet's order (status/generate.go). Pure.
import type {ContainerStatus, PodCondition, PodSpec} from '../api/types.js'
import {isSidecar} from '../pod/restart-policy.js'
import {anyRegularStarted, type PodPhase} from './phase.js'

// Go prints a []string as `[a b]`; the kubelet's messages use that form.
function goList(names: readonly string[]): string {
  return `[${names.join(' ')}]`
}

function condition(type: string, ok: boolean, reason?: string, message?: string): PodCondition {
  const c: PodCondition = {type, status: ok ? 'True' : 'False'}
  if (reason !== undefined) c.reason = reason
  if (message !== undefined) c.message = message
  return c
}

export function initializedCondition(
  spec: PodSpec,
  initStatuses: readonly ContainerStatus[],
  statuses: readonly ContainerStatus[],
  phase: PodPhase,
): PodCondition {
  const inits = spec.initContainers ?? []
  if (inits.length === 0) return condition('Initialized', true)
  const unknown: string[] = []
  const incomplete: string[] = []
  for (const c of inits) {
    const s = initStatuses.find((x) => x.name === c.name)
    if (s === undefined) unknown.push(c.name)
    else if (isSidecar(c) ? s.started !== true : !s.ready) incomplete.push(c.name)
  }
  if (phase === 'Succeeded' && unknown.length === 0) return condition('Initialized', true, 'PodCompleted')
  // A regular container has run: the pod was initialized, even if a sidecar restarts now.
  if (anyRegularStarted(spec, statuses)) return condition('Initialized', true)
  if (unknown.length > 0) {
    return condition('Initialized', false, 'UnknownContainerStatuses', `containers with unknown status: ${goList(unknown)}`)
  }
  if (incomplete.length > 0) {
    return condition('Initialized', false, 'ContainersNotInitialized', `containers with incomplete status: ${goList(incomplete)}`)
  }
  return condition('Initialized', true)
}

export function containersReadyCondition(
  spec: PodSpec,
  initStatuses: readonly ContainerStatus[],
  statuses: readonly ContainerStatus[],
  phase: PodPhase,
): PodCondition {
  const unknown: string[] = []
  const unready: string[] = []
  const check = (name: string, list: readonly ContainerStatus[]): void => {
    const s = list.find((x) => x.name === name)
    if (s === undefined) unknown.push(name)
    else if (!s.ready) unready.push(name)
  }
  for (const c of spec.initContainers ?? []) if (isSidecar(c)) check(c.name, initStatuses)
  for (const c of spec.containers) check(c.name, statuses)
  if (phase === 'Succeeded' && unknown.length === 0) return condition('ContainersReady', false, 'PodCompleted')
  if (phase === 'Failed') return condition('ContainersReady', false, 'PodFailed')
  const messages: string[] = []
  if (unknown.length > 0) messages.push(`containers with unknown status: ${goList(unknown)}`)
  if (unready.length > 0) messages.push(`containers with unready status: ${goList(unready)}`)
  if (messages.length > 0) return condition('ContainersReady', false, 'ContainersNotReady', messages.join('; '))
  return condition('ContainersReady', true)
}

/** Ready follows ContainersReady; readiness gates cannot be satisfied without an API server. */
export function readyCondition(spec: PodSpec, containersReady: PodCondition): PodCondition {
  if (containersReady.status !== 'True') {
    return condition('Ready', false, containersReady.reason, containersReady.message)
  }
  const gates = (spec.readinessGates ?? []).map((g) => g.conditionType)
  if (gates.length > 0) {
    const message = gates.map((g) => `corresponding condition of pod readiness gate "${g}" does not exist.`).join(', ')
    return condition('Ready', false, 'ReadinessGatesNotReady', message)
  }
  return condition('Ready', true)
}

export function podConditions(input: {
  spec: PodSpec
  sandboxReady: boolean
  initStatuses: readonly ContainerStatus[]
  statuses: readonly ContainerStatus[]
  phase: PodPhase
}): PodCondition[] {
  const {spec, initStatuses, statuses, phase} = input
  const containersReady = containersReadyCondition(spec, initStatuses, statuses, phase)
  return [
    condition('PodReadyToStartContainers', input.sandboxReady),
    initializedCondition(spec, initStatuses, statuses, phase),
    readyCondition(spec, containersReady),
    containersReady,
    condition('PodScheduled', true),
  ]
}
