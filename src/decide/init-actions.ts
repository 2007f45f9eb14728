// Which init containers to start (or kill and start) in a healthy sandbox: the kubelet's
// sidecar-aware computeInitContainerActions. Regular init containers run one at a time in
// order; a sidecar (restartable init container) lets the next one start once it has started,
// and is restarted whenever it stops. A failed regular one runs again when its restart rules,
// its own restartPolicy or the pod's say so. Pure.
import type {Container, Pod, PodFacts} from '../api/types.js'
import type {RuntimeContainer} from '../kuberuntime/model.js'
import type {PodProbeResults} from '../pod/probe-results.js'
import {containerSpecChanged} from '../kuberuntime/hash.js'
import {
  containerRestartPolicy, containerShouldRestart, isInitFailed, isSidecar, newestByName, restartVerdictReason,
} from '../pod/restart-policy.js'

export interface WantedStart {
  container: Container
  /** Index in spec.initContainers or spec.containers. */
  index: number
  reason: string
  /** A finished container run again because the pod's manifest changed: its restarts count from 0. */
  fresh?: true
}

export interface WantedKill {
  runtime: RuntimeContainer
  reason: string
  /**
   * The kill makes way for the edited definition: while that cannot start (its image is backed
   * off or cannot be pulled), the old container keeps serving instead of being stopped.
   */
  replaced?: true
}

export interface InitDecision {
  starts: WantedStart[]
  kills: WantedKill[]
  /** Every init container has done its part: regular containers may be examined. */
  initialized: boolean
  /** Set when a regular init container failed under restartPolicy Never: the pod has failed. */
  failed?: string
}

/** Where the walk over the init containers stands (from last to first). */
interface InitWalk {
  readonly pod: Pod
  readonly facts: PodFacts
  readonly inits: readonly Container[]
  readonly probes: PodProbeResults
  readonly out: InitDecision
  /** Wanted starts by index, each with its reason (a later reason for one index replaces an earlier one). */
  readonly starts: Map<number, string>
  podInitialized: boolean
  previousInitialized: boolean
}

/** The verdict of one init container: undefined to go on, else the pod's failure. */
type Step = string | undefined

export function computeInitActions(
  pod: Pod,
  facts: PodFacts,
  containers: readonly RuntimeContainer[],
  probes: PodProbeResults,
): InitDecision {
  const spec = pod.spec ?? {containers: []}
  const inits = spec.initContainers ?? []
  const out: InitDecision = {starts: [], kills: [], initialized: true}
  if (inits.length === 0) return out

  // A created or running regular container means initialization happened before, even if old
  // init containers were removed since; only sidecars must then be kept running.
  const podInitialized = spec.containers.some((c) => {
    const rc = newestByName(containers, c.name)
    return rc !== undefined && (rc.state === 'created' || rc.state === 'running')
  })
  const walk: InitWalk = {pod, facts, inits, probes, out, starts: new Map(), podInitialized, previousInitialized: podInitialized}

  // From last to first: the latest init container with a status tells where the sequence is,
  // as earlier ones may have been garbage-collected.
  for (const [i, c] of [...inits.entries()].reverse()) {
    const rc = newestByName(containers, c.name)
    if (rc === undefined) {
      if (walk.previousInitialized && isSidecar(c)) walk.starts.set(i, `${describeInit(c)} is not running; sidecars are kept running`)
      continue
    }
    if (walk.previousInitialized && !isSidecar(c)) continue
    const failed = visitInit(walk, i, c, rc)
    if (failed !== undefined) return {starts: [], kills: [], initialized: false, failed}
    walk.previousInitialized = true
  }
  if (!walk.previousInitialized) walk.starts.set(0, `no init container has run yet; init container "${inits[0]!.name}" is first`)

  out.starts = [...walk.starts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, reason]) => ({container: inits[index]!, index, reason}))
  out.initialized = walk.podInitialized
  return out
}

function describeInit(c: Container): string {
  return isSidecar(c) ? `sidecar "${c.name}"` : `init container "${c.name}"`
}

/** One init container that has a runtime instance, by the state of its newest one. */
function visitInit(walk: InitWalk, i: number, c: Container, rc: RuntimeContainer): Step {
  const what = describeInit(c)
  switch (rc.state) {
    case 'created':
      walk.out.kills.push({runtime: rc, reason: `${what} was created but never started`})
      walk.starts.set(i, `${what} was created but never started`)
      return undefined
    case 'running':
      if (isSidecar(c)) runningSidecar(walk, i, c, rc)
      // A regular init container: wait for it to finish.
      return undefined
    case 'exited':
      return exitedInit(walk, i, c, rc)
    case 'unknown':
      // No exit code to match rules against: the restart policy alone decides.
      if (!isSidecar(c) && containerRestartPolicy(c, walk.pod.spec ?? {containers: []}) === 'Never') {
        return `${what} is in an unknown state and restartPolicy is Never`
      }
      walk.out.kills.push({runtime: rc, reason: `${what} is in an unknown state`})
      walk.starts.set(i, `${what} was in an unknown state and is restarted`)
      return undefined
  }
}

/** A running sidecar: started (its startup probe passed) lets the next init container go; a changed or failing one is restarted. */
function runningSidecar(walk: InitWalk, i: number, c: Container, rc: RuntimeContainer): void {
  const what = describeInit(c)
  const {out, starts, probes} = walk
  if (c.startupProbe !== undefined) {
    const startup = probes.get(c.name)?.startup
    if (startup === 'Failure') {
      out.kills.push({runtime: rc, reason: `${what} failed its startup probe`})
      starts.set(i, `${what} failed its startup probe; sidecars are always restarted`)
    }
    if (startup !== 'Success') return // not started yet: wait
  }
  const next = walk.inits[i + 1]
  if (i === walk.inits.length - 1) walk.podInitialized = true
  else if (!walk.previousInitialized && next !== undefined) {
    starts.set(i + 1, `${what} has started, so init container "${next.name}" is next`)
  }
  const {changed, want} = containerSpecChanged(walk.facts, c.name, rc)
  if (changed) {
    out.kills.push({runtime: rc, reason: `${what}'s spec changed (hash ${rc.hash} → ${want})`})
    starts.set(i, `${what}'s spec changed`)
    return
  }
  if (c.livenessProbe !== undefined && probes.get(c.name)?.liveness === 'Failure') {
    out.kills.push({runtime: rc, reason: `${what} failed its liveness probe`})
    starts.set(i, `${what} failed its liveness probe; sidecars are always restarted`)
  }
}

/** An exited init container: a sidecar restarts, a failed one runs again or fails the pod, a completed one lets the next go. */
function exitedInit(walk: InitWalk, i: number, c: Container, rc: RuntimeContainer): Step {
  const what = describeInit(c)
  const next = walk.inits[i + 1]
  const spec = walk.pod.spec ?? {containers: []}
  if (isSidecar(c)) {
    walk.starts.set(i, `${what} exited with code ${rc.exitCode}; sidecars are always restarted`)
  } else if (isInitFailed(rc)) {
    const how = rc.reason === 'OOMKilled' ? 'was OOM-killed' : `exited with code ${rc.exitCode}`
    // Its restart rules, then its own restartPolicy, then the pod's (the kubelet's ContainerShouldRestart).
    const why = restartVerdictReason(c, spec, rc.exitCode)
    if (!containerShouldRestart(c, spec, rc.exitCode)) return `${what} ${how} and ${why}`
    walk.starts.set(i, `${what} ${how} and ${why}`)
  } else if (i === walk.inits.length - 1) {
    walk.podInitialized = true
  } else if (next !== undefined) {
    walk.starts.set(i + 1, `${what} completed, so init container "${next.name}" is next`)
  }
  return undefined
}
