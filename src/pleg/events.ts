// Pod lifecycle events from two snapshots of the runtime, after the kubelet's pleg/generic.go
// generateEvents. PURE: no I/O, no clock, no state; relist.ts owns the snapshots.
import type {RuntimeContainerState, RuntimePod, SandboxState} from '../kuberuntime/model.js'

export type PodLifecycleEventType = 'ContainerStarted' | 'ContainerDied' | 'ContainerRemoved' | 'ContainerChanged'

export interface PodLifecycleEvent {
  uid: string
  type: PodLifecycleEventType
  /** The container's (or the sandbox's) runtime id. */
  containerId: string
}

/** A container's state as the PLEG compares it; sandboxes are mapped onto it by sandboxPlegState. */
export type PlegState = RuntimeContainerState

/** The kubelet treats a sandbox as a container: ready is running, not ready is exited. */
export function sandboxPlegState(state: SandboxState): PlegState {
  return state === 'ready' ? 'running' : 'exited'
}

type Compared = 'running' | 'exited' | 'unknown' | 'absent'

// The kubelet has no "created" PLEG state: a created container counts as unknown.
function compared(s: PlegState | undefined): Compared {
  if (s === undefined) return 'absent'
  return s === 'created' ? 'unknown' : s
}

/**
 * The events for one container (or sandbox) id whose state was `oldState` at the previous relist
 * and is `newState` now; undefined means the runtime did not list it.
 */
export function generateEvents(
  uid: string,
  id: string,
  oldState: PlegState | undefined,
  newState: PlegState | undefined,
): PodLifecycleEvent[] {
  const before = compared(oldState)
  const after = compared(newState)
  if (before === after) return []
  const ev = (type: PodLifecycleEventType): PodLifecycleEvent => ({uid, type, containerId: id})
  switch (after) {
    case 'running':
      return [ev('ContainerStarted')]
    case 'exited':
      return [ev('ContainerDied')]
    case 'unknown':
      return [ev('ContainerChanged')]
    case 'absent':
      // A container that vanished without being seen exited also died.
      return before === 'exited' ? [ev('ContainerRemoved')] : [ev('ContainerDied'), ev('ContainerRemoved')]
  }
}

/** What one relist saw: id of every container and sandbox → its pod and state. */
export type PlegRecords = ReadonlyMap<string, {uid: string; state: PlegState}>

export function recordsOf(pods: readonly RuntimePod[]): Map<string, {uid: string; state: PlegState}> {
  const out = new Map<string, {uid: string; state: PlegState}>()
  for (const p of pods) {
    for (const s of p.sandboxes) out.set(s.id, {uid: p.uid, state: sandboxPlegState(s.state)})
    for (const c of p.containers) out.set(c.id, {uid: p.uid, state: c.state})
  }
  return out
}

/**
 * All events between two relists, grouped per pod (pods in order of first appearance, the new
 * snapshot first), each pod's ids in snapshot order.
 */
export function diffRecords(before: PlegRecords, after: PlegRecords): PodLifecycleEvent[] {
  const byPod = new Map<string, PodLifecycleEvent[]>()
  const add = (uid: string, events: PodLifecycleEvent[]): void => {
    if (events.length === 0) return
    const list = byPod.get(uid)
    if (list) list.push(...events)
    else byPod.set(uid, events)
  }
  for (const [id, now] of after) add(now.uid, generateEvents(now.uid, id, before.get(id)?.state, now.state))
  for (const [id, was] of before) {
    if (!after.has(id)) add(was.uid, generateEvents(was.uid, id, was.state, undefined))
  }
  return [...byPod.values()].flat()
}
