// Small pure facts about a pod's containers and its restart policy, shared by the decision
// (compute-pod-actions) and the status (status/generate).
import type {Container, PodSpec} from '../api/types.js'
import type {ContainerRestartRule} from '../api/generated/types.js'
import type {ContainerType, RuntimeContainer} from '../kuberuntime/model.js'

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never'

export function podRestartPolicy(spec: PodSpec): RestartPolicy {
  const p = spec.restartPolicy
  return p === 'OnFailure' || p === 'Never' ? p : 'Always'
}

/**
 * The container-level rule that decides an exit (KEP-5307, the kubelet's
 * findMatchingContainerRestartRule): the first rule, in order, whose exit-code condition
 * holds. Rules count only beside a container-level restartPolicy, which validation requires.
 */
export function matchingRestartRule(c: Container, exitCode: number): {rule: ContainerRestartRule; index: number} | undefined {
  if (c.restartPolicy === undefined) return undefined
  const rules = c.restartPolicyRules ?? []
  for (const [index, rule] of rules.entries()) {
    const codes = rule.exitCodes
    if (codes === undefined) continue
    const listed = (codes.values ?? []).includes(exitCode)
    if ((codes.operator === 'In' && listed) || (codes.operator === 'NotIn' && !listed)) return {rule, index}
  }
  return undefined
}

/**
 * Whether a container that exited with that code runs again (the kubelet's
 * ContainerShouldRestart): a matching restart rule first, then the container's own
 * restartPolicy, then the pod's. Init containers and regular ones alike; a sidecar's
 * `Always` makes it always true.
 */
export function containerShouldRestart(c: Container, spec: PodSpec, exitCode: number): boolean {
  if (matchingRestartRule(c, exitCode)?.rule.action === 'Restart') return true
  const policy = containerRestartPolicy(c, spec)
  return policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0)
}

/** The restart policy that applies to a container when no rule matched: its own, else the pod's. */
export function containerRestartPolicy(c: Container, spec: PodSpec): RestartPolicy {
  const own = c.restartPolicy
  return own === 'Always' || own === 'OnFailure' || own === 'Never' ? own : podRestartPolicy(spec)
}

/**
 * Whether the container may ever run again after it stopped (the kubelet's
 * IsContainerRestartable): its restart policy is not Never, or one of its rules restarts.
 */
export function isContainerRestartable(c: Container, spec: PodSpec): boolean {
  if (c.restartPolicy !== undefined && (c.restartPolicyRules ?? []).some((r) => r.action === 'Restart')) return true
  return containerRestartPolicy(c, spec) !== 'Never'
}

/**
 * The words a plan gives for an exit's verdict: the rule that decided it, or the policy.
 * `restartPolicyRules[0] (exit code In [42])` or `restartPolicy is Never`.
 */
export function restartVerdictReason(c: Container, spec: PodSpec, exitCode: number): string {
  const match = matchingRestartRule(c, exitCode)
  if (match?.rule.action === 'Restart') {
    const codes = match.rule.exitCodes
    return `restartPolicyRules[${match.index}] (exit code ${codes?.operator} [${(codes?.values ?? []).join(', ')}]) restarts it`
  }
  const own = c.restartPolicy !== undefined ? 'its restartPolicy' : 'restartPolicy'
  return `${own} is ${containerRestartPolicy(c, spec)}`
}

/** A restartable init container (`restartPolicy: Always` on an init container): a sidecar. */
export function isSidecar(c: Container): boolean {
  return c.restartPolicy === 'Always'
}

export function initContainerType(c: Container): ContainerType {
  return isSidecar(c) ? 'sidecar' : 'init'
}

/**
 * The newest runtime container of that name. `containers` is newest first (RuntimePod), but
 * ordering by createdAt keeps this right for any input.
 */
export function newestByName(containers: readonly RuntimeContainer[], name: string): RuntimeContainer | undefined {
  let best: RuntimeContainer | undefined
  for (const c of containers) {
    if (c.name !== name) continue
    if (best === undefined || c.createdAt > best.createdAt) best = c
  }
  return best
}

/** All runtime containers of that name, newest first. */
export function allByName(containers: readonly RuntimeContainer[], name: string): RuntimeContainer[] {
  return containers
    .map((c, i) => ({c, i}))
    .filter(({c}) => c.name === name)
    .sort((a, b) => b.c.createdAt - a.c.createdAt || a.i - b.i)
    .map(({c}) => c)
}

/** A regular init container counts as failed when it exited non-zero or was OOM-killed. */
export function isInitFailed(c: RuntimeContainer): boolean {
  if (c.state === 'unknown') return true
  return c.state === 'exited' && (c.exitCode !== 0 || c.reason === 'OOMKilled')
}

/** The restart count a new instance of that container gets: newest old one + 1, or 0. */
export function nextRestartCount(previous: RuntimeContainer | undefined): number {
  return previous === undefined ? 0 : previous.restartCount + 1
}
