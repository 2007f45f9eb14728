// A pod's one-line summary the way `kubectl get pods` prints it: READY as ready/total, STATUS as
// the most telling reason (a waiting or terminated container's reason, else the phase).
import type {Pod} from '../../api/types.js'

export interface PodRow {
  name: string
  namespace: string
  ready: string
  status: string
  restarts: number
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
  const s = Math.max(0, Math.floor((now - Date.parse(since)) / 1000))
  if (s < 120) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 120) return `${m}m`
  const h = Math.floor(m / 60)
  return h < 48 ? `${h}h` : `${Math.floor(h / 24)}d`
}

export function podRow(pod: Pod, now: number): PodRow {
  const cs = pod.status?.containerStatuses ?? []
  return {
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? 'default',
    ready: `${cs.filter((c) => c.ready).length}/${pod.spec?.containers.length ?? cs.length}`,
    status: podStatusText(pod),
    restarts: cs.reduce((n, c) => n + (c.restartCount ?? 0), 0),
    ip: pod.status?.podIP ?? '<none>',
    node: pod.spec?.nodeName ?? '<none>',
    age: age(pod.status?.startTime, now),
  }
}
