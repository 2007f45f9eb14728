// Small pure facts about a pod's containers and its restart policy and rules (restartPolicyRules,
// RestartAllContainers), shared by the decision (compute-pod-actions) and the status (status/generate).
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

// RestartAllContainers (KEP-5532, beta in Kubernetes 1.36), as the kubelet honours it
// (ShouldAllContainersRestart in pkg/kubelet/container/helpers.go, the containers-to-reset step of
// computePodActions): when a container — init, sidecar or regular — exits with a code whose first
// matching restartPolicyRules entry has action RestartAllContainers, every container of the pod is
// stopped and the pod starts again in place: same sandbox (IP, volumes), init containers first,
// then sidecars and regular containers, even those that had succeeded or whose policy is Never;
// each container's restart count goes up by one. The kubelet removes the old containers so that
// the next sync sees a fresh pod; kube-node keeps them (restart counts and `logs --previous` come
// from them) and instead counts as the current run only the containers created at or after the
// exit that asked for the restart. Pure.

export interface RestartAll {
  /** When the exit that asked for the restart happened (ms since the epoch). */
  at: number
  /** The exit and its rule, in words: `container "src" exited with code 42 and its restartPolicyRules[0] restarts all containers`. */
  why: string
  /** The containers of the current run: those created at or after `at`. */
  current: RuntimeContainer[]
  /** The containers of earlier runs that still run (or may): they are stopped. */
  stale: RuntimeContainer[]
}

/** The latest exit that asks for every container to restart, if any. */
export function restartAll(spec: PodSpec, containers: readonly RuntimeContainer[]): RestartAll | undefined {
  const all: Container[] = [...(spec.initContainers ?? []), ...spec.containers]
  const specs = new Map(all.map((c) => [c.name, c]))
  const order = all.map((c) => c.name)
  let trigger: {rc: RuntimeContainer; index: number} | undefined
  for (const rc of containers) {
    if (rc.state !== 'exited') continue
    const c = specs.get(rc.name)
    const match = c ? matchingRestartRule(c, rc.exitCode) : undefined
    if (match?.rule.action !== 'RestartAllContainers') continue
    if (trigger === undefined || rc.finishedAt > trigger.rc.finishedAt) trigger = {rc, index: match.index}
  }
  if (trigger === undefined) return undefined
  const at = trigger.rc.finishedAt
  const current = containers.filter((c) => c.createdAt >= at)
  return {
    at,
    why: `${named(trigger.rc)} exited with code ${trigger.rc.exitCode} and its restartPolicyRules[${trigger.index}] restarts all containers`,
    current,
    // In spec order, for a plan that reads the same whatever order the runtime lists them in.
    stale: containers.filter((c) => c.createdAt < at && c.state !== 'exited').sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name)),
  }
}

/** `container "web"`, `sidecar "proxy"`, `init container "setup"`, as plans name them. */
export function named(rc: RuntimeContainer): string {
  const what = rc.type === 'regular' ? 'container' : rc.type === 'sidecar' ? 'sidecar' : 'init container'
  return `${what} "${rc.name}"`
}
