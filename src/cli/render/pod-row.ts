// A pod's one-line summary the way `kubectl get pods` prints it: READY as ready/total, STATUS as
// the most telling reason (a waiting or terminated container's reason, else the phase).
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

/** kubectl's human duration (apimachinery's HumanDuration): `45s`, `5m49s`, `47m`, `3h10m`, `9d`, `2y31d`. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000)
  if (seconds < -1) return '<invalid>'
  if (seconds < 0) return '0s'
  if (seconds < 120) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`
  if (minutes < 180) return `${minutes}m`
  const hours = Math.floor(minutes / 60)
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`
  if (hours < 48) return `${hours}h`
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`
  const days = Math.floor(hours / 24)
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${Math.floor(days / 365)}y` : `${Math.floor(days / 365)}y${days % 365}d`
  return `${Math.floor(days / 365)}y`
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
