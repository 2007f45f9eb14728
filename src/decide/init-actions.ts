// Which init containers to start (or kill and start) in a healthy sandbox: the kubelet's
// sidecar-aware computeInitContainerActions. Regular init containers run one at a time in
// order; a sidecar (restartable init container) lets the next one start once it has started,
// and is restarted whenever it stops. A failed regular one runs again when its restart rules,
// its own restartPolicy or the pod's say so. Pure.
import type {Container, Pod} from '../api/types.js'
import type {RuntimeContainer} from '../kuberuntime/model.js'
import type {PodProbeResults} from '../pod/probe-results.js'
import {containerSpecChanged} from '../pod/spec-changed.js'
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

export function computeInitActions(
  pod: Pod,
  containers: readonly RuntimeContainer[],
  probes: PodProbeResults,
): InitDecision {
  const spec = pod.spec ?? {containers: []}
  const inits = spec.initContainers ?? []
  const out: InitDecision = {starts: [], kills: [], initialized: true}
  if (inits.length === 0) return out

  // A created or running regular container means initialization happened before, even if old
  // init containers were removed since; only sidecars must then be kept running.
  let podInitialized = spec.containers.some((c) => {
    const rc = newestByName(containers, c.name)
    return rc !== undefined && (rc.state === 'created' || rc.state === 'running')
  })
  let previousInitialized = podInitialized
  const starts = new Map<number, string>()
  const last = inits.length - 1

  // From last to first: the latest init container with a status tells where the sequence is,
  // as earlier ones may have been garbage-collected.
  for (const [i, c] of [...inits.entries()].reverse()) {
    const sidecar = isSidecar(c)
    const rc = newestByName(containers, c.name)
    const what = sidecar ? `sidecar "${c.name}"` : `init container "${c.name}"`
    const next = inits[i + 1]
    if (rc === undefined) {
      if (previousInitialized && sidecar) starts.set(i, `${what} is not running; sidecars are kept running`)
      continue
    }
    if (previousInitialized && !sidecar) continue

    switch (rc.state) {
      case 'created':
        out.kills.push({runtime: rc, reason: `${what} was created but never started`})
        starts.set(i, `${what} was created but never started`)
        break
      case 'running': {
        if (!sidecar) break // a regular init container: wait for it to finish
        if (c.startupProbe !== undefined) {
          const startup = probes.get(c.name)?.startup
          if (startup === 'Failure') {
            out.kills.push({runtime: rc, reason: `${what} failed its startup probe`})
            starts.set(i, `${what} failed its startup probe; sidecars are always restarted`)
          }
          if (startup !== 'Success') break // not started yet: wait
        }
        if (i === last) podInitialized = true
        else if (!previousInitialized && next !== undefined) {
          starts.set(i + 1, `${what} has started, so init container "${next.name}" is next`)
        }
        const {changed, want} = containerSpecChanged(pod, c, rc)
        if (changed) {
          out.kills.push({runtime: rc, reason: `${what}'s spec changed (hash ${rc.hash} → ${want})`})
          starts.set(i, `${what}'s spec changed`)
          break
        }
        if (c.livenessProbe !== undefined && probes.get(c.name)?.liveness === 'Failure') {
          out.kills.push({runtime: rc, reason: `${what} failed its liveness probe`})
          starts.set(i, `${what} failed its liveness probe; sidecars are always restarted`)
        }
        break
      }
      case 'exited':
        if (sidecar) {
          starts.set(i, `${what} exited with code ${rc.exitCode}; sidecars are always restarted`)
        } else if (isInitFailed(rc)) {
          const how = rc.reason === 'OOMKilled' ? 'was OOM-killed' : `exited with code ${rc.exitCode}`
          // Its restart rules, then its own restartPolicy, then the pod's (the kubelet's ContainerShouldRestart).
          const why = restartVerdictReason(c, spec, rc.exitCode)
          if (!containerShouldRestart(c, spec, rc.exitCode)) return {starts: [], kills: [], initialized: false, failed: `${what} ${how} and ${why}`}
          starts.set(i, `${what} ${how} and ${why}`)
        } else if (i === last) {
          podInitialized = true
        } else if (next !== undefined) {
          starts.set(i + 1, `${what} completed, so init container "${next.name}" is next`)
        }
        break
      case 'unknown':
        // No exit code to match rules against: the restart policy alone decides.
        if (!sidecar && containerRestartPolicy(c, spec) === 'Never') {
          return {starts: [], kills: [], initialized: false, failed: `${what} is in an unknown state and restartPolicy is Never`}
        }
        out.kills.push({runtime: rc, reason: `${what} is in an unknown state`})
        starts.set(i, `${what} was in an unknown state and is restarted`)
        break
    }
    previousInitialized = true
  }
  if (!previousInitialized) starts.set(0, `no init container has run yet; init container "${inits[0]!.name}" is first`)

  out.starts = [...starts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, reason]) => ({container: inits[index]!, index, reason}))
  out.initialized = podInitialized
  return out
}
