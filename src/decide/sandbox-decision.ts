// Does the pod need a new sandbox? The kubelet's podSandboxChanged, plus kube-node's sandbox hash
// (ARCHITECTURE.md "Identity and updates"). Pure.
import type {Pod, PodFacts} from '../api/types.js'
import type {RuntimeSandbox} from '../kuberuntime/model.js'
import {sandboxSpecChanged} from '../kuberuntime/hash.js'

export type SandboxDecision =
  | {create: false; sandbox: RuntimeSandbox}
  | {
      create: true
      attempt: number
      reason: string
      /** True when the newest sandbox died (rather than being replaced on purpose). */
      dead: boolean
    }

export function shortId(id: string): string {
  return id.slice(0, 13)
}

/** `sandboxes` newest first. */
export function decideSandbox(pod: Pod, facts: PodFacts, sandboxes: readonly RuntimeSandbox[]): SandboxDecision {
  const newest = sandboxes[0]
  if (newest === undefined) return {create: true, attempt: 0, reason: 'new pod: no sandbox', dead: false}
  const attempt = newest.attempt + 1
  const ready = sandboxes.filter((s) => s.state === 'ready').length
  if (ready > 1) {
    return {create: true, attempt, dead: false, reason: `the pod has ${ready} ready sandboxes; it is recreated with one`}
  }
  if (newest.state !== 'ready') {
    return {create: true, attempt, dead: true, reason: `sandbox ${shortId(newest.id)} is not ready`}
  }
  // A pod network sandbox without an IP cannot serve its containers (the kubelet's PodSandboxChanged).
  if (pod.spec?.hostNetwork !== true && newest.ip === '') {
    return {create: true, attempt, dead: false, reason: `sandbox ${shortId(newest.id)} has no IP address; a new one is started`}
  }
  // A sandbox without our hash was not made by these rules (adopted): it is left alone.
  const {changed, want} = sandboxSpecChanged(facts, newest)
  if (changed) {
    return {
      create: true,
      attempt,
      dead: false,
      reason: `pod-level settings changed (sandbox hash ${newest.hash ?? ''} → ${want}); the sandbox is recreated`,
    }
  }
  return {create: false, sandbox: newest}
}
