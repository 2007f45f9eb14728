// May this pod be created now (`kube-node.io/start-after`), and if not, why? Pure: the caller
// says what it knows of each awaited pod. Only creation is gated: a pod whose sandbox exists has
// started before, and its restarts are never held back.
import type {PodStatus} from '../api/types.js'

/** What the caller knows of one awaited pod. */
export type AwaitedPod =
  | {state: 'ready'}
  /** Defined and on its way; `detail` says where it is (`container "etcd" is waiting: …`). */
  | {state: 'pending'; detail: string}
  /** It will never become Ready in this run (failed, rejected, or finished without being Ready). */
  | {state: 'ended'; detail: string}
  /** No source defines it (now). */
  | {state: 'unknown'}

export interface GateInput {
  /** The names in the pod's start-after annotation. */
  startAfter: readonly string[]
  /** The runtime holds a sandbox of the pod (any state): it started before. */
  hasSandbox: boolean
  awaited: (name: string) => AwaitedPod
}

export type GateVerdict =
  | {open: true; reason: string}
  /** `final`: waiting cannot help (an awaited pod ended); `waitsFor`: the names not yet Ready. */
  | {open: false; final: boolean; waitsFor: string[]; reason: string}

const quoted = (names: readonly string[]): string => names.map((n) => `"${n}"`).join(', ')

export function startGate(input: GateInput): GateVerdict {
  if (input.startAfter.length === 0) return {open: true, reason: 'no start-after'}
  if (input.hasSandbox) return {open: true, reason: 'started before: restarts are never held back'}
  const states = input.startAfter.map((name) => ({name, s: input.awaited(name)}))
  const ended = states.find(({s}) => s.state === 'ended')
  const notReady = states.filter(({s}) => s.state !== 'ready').map(({name}) => name)
  if (ended && ended.s.state === 'ended') {
    return {open: false, final: true, waitsFor: notReady, reason: `not started: it starts after pod "${ended.name}", which will not become Ready (${ended.s.detail})`}
  }
  if (notReady.length === 0) return {open: true, reason: `pods ${quoted(input.startAfter)} are Ready`}
  const first = states.find(({s}) => s.state !== 'ready')!
  const detail = first.s.state === 'pending' ? first.s.detail : 'no source defines it'
  const which = notReady.length === 1 ? `pod ${quoted(notReady)}` : `pods ${quoted(notReady)}`
  const about = notReady.length === 1 ? detail : `"${first.name}": ${detail}`
  return {open: false, final: false, waitsFor: notReady, reason: `waits for ${which} to be Ready (start-after); ${about}`}
}

/** An awaited pod as its last computed status shows it (Ready is the Ready condition). */
export function awaitedFromStatus(status: PodStatus | undefined): AwaitedPod {
  if (!status) return {state: 'pending', detail: 'not synced yet'}
  const ready = status.conditions?.find((c) => c.type === 'Ready')
  if (ready?.status === 'True') return {state: 'ready'}
  const phase = status.phase ?? 'Pending'
  if (phase === 'Failed' || phase === 'Succeeded') return {state: 'ended', detail: `pod is ${phase}`}
  const detail = ready?.message ?? ready?.reason
  return {state: 'pending', detail: `pod is ${phase}${detail ? `, not Ready: ${detail}` : ''}`}
}
