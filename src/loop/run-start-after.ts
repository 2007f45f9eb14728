// Start-after in `run`: what the run knows of each pod that another pod starts after, by manifest
// name, and the gate that holds a pod until those it starts after are Ready. A pod the run
// rejected has ended before it began; every other pod is pending until its own run says more.
import type {StaticPod} from '../api/types.js'
import type {AwaitedPod} from '../decide/start-gate.js'
import {gateFor, type StartGateCheck} from './sync-pod.js'

export interface StartAfterOrder {
  /** The pods some other pod starts after: they are awaited until Ready, whatever --wait says. */
  awaitedNames: ReadonlySet<string>
  states: Map<string, AwaitedPod>
}

/** `rejected[i]`: why pods[i] was refused, if it was. */
export function startAfterOrder(pods: readonly StaticPod[], rejected: readonly (string | undefined)[]): StartAfterOrder {
  const awaitedNames = new Set(pods.flatMap((sp) => sp.startAfter ?? []))
  const states = new Map<string, AwaitedPod>()
  pods.forEach((sp, i) => {
    const reason = rejected[i]
    states.set(sp.manifestName, reason !== undefined ? {state: 'ended', detail: reason} : {state: 'pending', detail: 'not started yet'})
  })
  return {awaitedNames, states}
}

/** The pod's gate (undefined when it starts after no pod). */
export function gateOf(startAfter: readonly string[] | undefined, order: StartAfterOrder): StartGateCheck | undefined {
  return gateFor(startAfter, (n) => order.states.get(n) ?? {state: 'unknown'})
}
