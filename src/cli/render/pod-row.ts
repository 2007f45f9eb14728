// A pod's one-line summary the way `kubectl get pods` prints it: READY as ready/total, STATUS as
// the most telling reason (a waiting or terminated container's reason, else the phase).
import {humanDuration} from '../../util/human-duration.js'
import type {Pod} from '../../api/types.js'

export interface PodRow {
  name: string
  namespace: string
  ready: string
  status: string
  restarts: number
  /** RESTARTS as kubectl prints it. */
  restartsText: string
  ip: string
  node: string
  age: string
}

export function podStatusText(pod: Pod): string {
  const st = pod.status ?? {}
  let reason = st.reason ?? st.phase ?? 'Unknown'
  const inits = st.initContainerStatuses ?? []
  const initTotal = pod.spec?.initContainers?.length ?? 0
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i]!
    const isSidecar = pod.spec?.initContainers?.[i]?.restartPolicy === 'Always'
    if (c.state?.terminated?.exitCode === 0) continue
    if (isSidecar && c.started) continue
    if (c.state?.terminated) return `Init:${c.state.terminated.reason || `ExitCode:${c.state.terminated.exitCode}`}`
    if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') return `Init:${c.state.waiting.reason}`
    return `Init:${i}/${initTotal}`
  }
  let anyRunning = false
  for (const c of [...(st.containerStatuses ?? [])].reverse()) {
    if (c.state?.waiting?.reason) reason = c.state.waiting.reason
    else if (c.state?.terminated) reason = c.state.terminated.reason || `ExitCode:${c.state.terminated.exitCode}`
    else if (c.state?.running && c.ready) anyRunning = true
  }
  if (reason === 'Completed' && anyRunning) reason = 'Running'
  return reason
}


export function age(since: string | undefined, now: number): string {
  if (!since) return '<none>'
  const t = Date.parse(since)
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t)
}

/** RESTARTS as kubectl prints it: the sum, and since when the newest restart is, `2 (5m ago)`. */
export function restartsText(pod: Pod, now: number): string {
  const cs = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]
  const restarts = (pod.status?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0)
  const last = Math.max(0, ...cs.map((c) => Date.parse(c.lastState?.terminated?.finishedAt ?? '') || 0))
  return restarts > 0 && last > 0 ? `${restarts} (${humanDuration(now - last)} ago)` : String(restarts)
}

export function podRow(pod: Pod, now: number): PodRow {
  const cs = pod.status?.containerStatuses ?? []
  return {
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? 'default',
    ready: `${cs.filter((c) => c.ready).length}/${pod.spec?.containers.length ?? cs.length}`,
    status: podStatusText(pod),
    restarts: cs.reduce((n, c) => n + (c.restartCount ?? 0), 0),
    restartsText: restartsText(pod, now),
    ip: pod.status?.podIP ?? '<none>',
    node: pod.spec?.nodeName ?? '<none>',
    age: age(pod.status?.startTime, now),
  }
}
