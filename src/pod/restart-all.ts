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
import type {Container, PodSpec} from '../api/types.js'
import type {RuntimeContainer} from '../kuberuntime/model.js'
import {matchingRestartRule} from './restart-policy.js'

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
