// `describe pod` in kubectl's layout: metadata, status, each container (image, state, last state,
// ready, restarts, probes, mounts, environment names), conditions, volumes, QoS, and Events at the
// bottom. Everything that came from a manifest, a container or the runtime is escaped.
import type {Container, ContainerState, ContainerStatus, Event, Pod, Probe, Volume} from '../../api/types.js'
import {byCodeUnit} from '../../util/compare.js'
import type {PodDescription} from '../../services/describe.js'
import {escapeControls} from '../../util/terminal-text.js'
import {age, podStatusText} from './pod-row.js'

/** kubectl's time format (RFC 1123 with a numeric zone). */
function when(t: string | undefined): string {
  if (!t) return '<unknown>'
  const d = new Date(t)
  if (Number.isNaN(d.getTime())) return t
  return d.toUTCString().replace('GMT', '+0000')
}

class Writer {
  readonly lines: string[] = []
  /** `Key:` padded to the section's column, then the value. */
  field(indent: number, key: string, value: string, width = 18): void {
    const label = `${' '.repeat(indent)}${key}:`
    this.lines.push(value === '' ? label : `${label.padEnd(indent + width)}${escapeControls(value)}`)
  }
  line(indent: number, text: string): void {
    this.lines.push(`${' '.repeat(indent)}${escapeControls(text)}`)
  }
}

function mapLines(w: Writer, key: string, map: Record<string, string> | undefined, sep: string): void {
  const entries = Object.entries(map ?? {}).sort(([a], [b]) => byCodeUnit(a, b))
  if (entries.length === 0) return w.field(0, key, '<none>')
  entries.forEach(([k, v], i) => (i === 0 ? w.field(0, key, `${k}${sep}${v}`) : w.line(18, `${k}${sep}${v}`)))
}

export function probeText(p: Probe): string {
  const timing = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 1}s period=${p.periodSeconds ?? 10}s #success=${p.successThreshold ?? 1} #failure=${p.failureThreshold ?? 3}`
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}] ${timing}`
  if (p.httpGet) return `http-get ${(p.httpGet.scheme ?? 'HTTP').toLowerCase()}://${p.httpGet.host ?? ''}:${p.httpGet.port}${p.httpGet.path ?? '/'} ${timing}`
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${p.tcpSocket.port} ${timing}`
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${timing}`.replace(/ {2,}/g, ' ')
  return timing
}

function state(w: Writer, indent: number, key: string, s: ContainerState | undefined): void {
  if (s?.running) {
    w.field(indent, key, 'Running')
    w.field(indent + 2, 'Started', when(s.running.startedAt))
  } else if (s?.terminated) {
    w.field(indent, key, 'Terminated')
    w.field(indent + 2, 'Reason', s.terminated.reason ?? '')
    if (s.terminated.message) w.field(indent + 2, 'Message', s.terminated.message.split('\n').join(' | '))
    w.field(indent + 2, 'Exit Code', String(s.terminated.exitCode))
    w.field(indent + 2, 'Started', when(s.terminated.startedAt))
    w.field(indent + 2, 'Finished', when(s.terminated.finishedAt))
  } else if (s?.waiting) {
    w.field(indent, key, 'Waiting')
    w.field(indent + 2, 'Reason', s.waiting.reason ?? '')
    if (s.waiting.message) w.field(indent + 2, 'Message', s.waiting.message)
  } else {
    w.field(indent, key, '')
  }
}

function envSource(e: NonNullable<Container['env']>[number]): string {
  const from = e.valueFrom
  if (from?.secretKeyRef) return `<set to the key '${from.secretKeyRef.key}' in secret '${from.secretKeyRef.name ?? ''}'>`
  if (from?.configMapKeyRef) return `<set to the key '${from.configMapKeyRef.key}' of config map '${from.configMapKeyRef.name ?? ''}'>`
  if (from?.fieldRef) return `(${from.fieldRef.apiVersion ?? 'v1'}:${from.fieldRef.fieldPath})`
  if (from?.resourceFieldRef) return `${from.resourceFieldRef.resource} (${from.resourceFieldRef.containerName ?? ''})`
  // Values are not shown: a manifest may carry a credential in plain env.
  return '<set>'
}

function container(w: Writer, c: Container, s: ContainerStatus | undefined): void {
  w.line(2, `${c.name}:`)
  w.field(4, 'Container ID', s?.containerID ?? '')
  w.field(4, 'Image', c.image ?? '')
  w.field(4, 'Image ID', s?.imageID ?? '')
  const ports = (c.ports ?? []).map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`)
  w.field(4, ports.length > 1 ? 'Ports' : 'Port', ports.join(', ') || '<none>')
  if (c.command) w.field(4, 'Command', c.command.join(' '))
  if (c.args) w.field(4, 'Args', c.args.join(' '))
  state(w, 4, 'State', s?.state)
  if (s?.lastState && Object.keys(s.lastState).length > 0) state(w, 4, 'Last State', s.lastState)
  w.field(4, 'Ready', s?.ready ? 'True' : 'False')
  w.field(4, 'Restart Count', String(s?.restartCount ?? 0))
  if (c.livenessProbe) w.field(4, 'Liveness', probeText(c.livenessProbe))
  if (c.readinessProbe) w.field(4, 'Readiness', probeText(c.readinessProbe))
  if (c.startupProbe) w.field(4, 'Startup', probeText(c.startupProbe))
  const env = c.env ?? []
  w.field(4, 'Environment', env.length === 0 && !c.envFrom ? '<none>' : '')
  for (const e of env) w.field(6, e.name, envSource(e), 14)
  const mounts = c.volumeMounts ?? []
  w.field(4, 'Mounts', mounts.length === 0 ? '<none>' : '')
  for (const m of mounts) w.line(6, `${m.mountPath} from ${m.name} (${m.readOnly ? 'ro' : 'rw'})${m.subPath ? ` (path "${m.subPath}")` : ''}`)
}

function volume(w: Writer, v: Volume): void {
  w.line(2, `${v.name}:`)
  if (v.hostPath) {
    w.field(4, 'Type', 'HostPath (bare host directory volume)', 14)
    w.field(4, 'Path', v.hostPath.path, 14)
    w.field(4, 'HostPathType', v.hostPath.type ?? '', 14)
  } else if (v.configMap) {
    w.field(4, 'Type', 'ConfigMap (a volume populated by a ConfigMap)', 14)
    w.field(4, 'Name', v.configMap.name ?? '', 14)
  } else if (v.secret) {
    w.field(4, 'Type', 'Secret (a volume populated by a Secret)', 14)
    w.field(4, 'SecretName', v.secret.secretName ?? '', 14)
  } else if (v.downwardAPI) {
    w.field(4, 'Type', 'DownwardAPI (a volume populated by information about the pod)', 14)
  } else if (v.projected) {
    w.field(4, 'Type', 'Projected (a volume that contains injected data from multiple sources)', 14)
  } else {
    w.field(4, 'Type', "EmptyDir (a temporary directory that shares a pod's lifetime)", 14)
    w.field(4, 'Medium', v.emptyDir?.medium ?? '', 14)
    if (v.emptyDir?.sizeLimit !== undefined) w.field(4, 'SizeLimit', String(v.emptyDir.sizeLimit), 14)
  }
}

/** As kubectl prints a toleration: `key=value:Effect`, ` op=Exists` for a wildcard, ` for Ns`. */
function tolerationText(t: NonNullable<NonNullable<Pod['spec']>['tolerations']>[number]): string {
  let text = t.key ?? ''
  if (t.value) text += `=${t.value}`
  if (t.effect) text += `:${t.effect}`
  if (t.operator === 'Exists' && !t.value && !t.key) text += ' op=Exists'
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) text += ` for ${t.tolerationSeconds}s`
  return text
}

function eventAge(e: Event, now: number): string {
  const last = age(e.lastTimestamp, now)
  return (e.count ?? 1) > 1 ? `${last} (x${e.count} over ${age(e.firstTimestamp, now)})` : last
}

export function renderDescription(d: PodDescription, now: number): string {
  const {pod} = d
  const meta = pod.metadata ?? {}
  const spec = pod.spec
  const status = pod.status ?? {}
  const w = new Writer()
  w.field(0, 'Name', meta.name ?? '')
  w.field(0, 'Namespace', meta.namespace ?? 'default')
  w.field(0, 'Priority', String(spec?.priority ?? 0))
  if (spec?.priorityClassName) w.field(0, 'Priority Class Name', spec.priorityClassName)
  w.field(0, 'Node', `${d.nodeName}/${status.hostIP ?? d.hostIP}`)
  w.field(0, 'Start Time', when(status.startTime))
  mapLines(w, 'Labels', meta.labels, '=')
  mapLines(w, 'Annotations', meta.annotations, ': ')
  w.field(0, 'Status', podStatusText(pod))
  if (status.reason) w.field(0, 'Reason', status.reason)
  if (status.message) w.field(0, 'Message', status.message)
  w.field(0, 'IP', status.podIP ?? '')
  w.field(0, 'IPs', (status.podIPs ?? []).length === 0 ? '<none>' : '')
  for (const ip of status.podIPs ?? []) w.field(2, 'IP', ip.ip ?? '', 5)
  const sections: [string, Container[] | undefined, ContainerStatus[] | undefined][] = [
    ['Init Containers', spec?.initContainers, status.initContainerStatuses],
    ['Containers', spec?.containers, status.containerStatuses],
  ]
  for (const [title, list, statuses] of sections) {
    if (!list || list.length === 0) continue
    w.field(0, title, '')
    for (const c of list) container(w, c, statuses?.find((s) => s.name === c.name))
  }
  const conditions = status.conditions ?? []
  w.field(0, 'Conditions', conditions.length === 0 ? '<none>' : '')
  if (conditions.length > 0) {
    const width = Math.max(4, ...conditions.map((c) => c.type.length)) + 2
    w.line(2, `${'Type'.padEnd(width)}Status`)
    for (const c of conditions) w.line(2, `${c.type.padEnd(width)}${c.status}`)
  }
  const volumes = spec?.volumes ?? []
  w.field(0, 'Volumes', volumes.length === 0 ? '<none>' : '')
  for (const v of volumes) volume(w, v)
  w.field(0, 'QoS Class', status.qosClass ?? '')
  mapLines(w, 'Node-Selectors', spec?.nodeSelector, '=')
  const tolerations = (spec?.tolerations ?? []).map(tolerationText)
  if (tolerations.length === 0) w.field(0, 'Tolerations', '<none>')
  tolerations.forEach((t, i) => (i === 0 ? w.field(0, 'Tolerations', t) : w.line(18, t)))
  const events = d.events.items
  if (events.length === 0) {
    w.field(0, 'Events', '<none>')
  } else {
    w.field(0, 'Events', '')
    const rows = events.map((e) => [e.type ?? '', e.reason ?? '', eventAge(e, now), 'kubelet', e.message ?? ''].map((x) => escapeControls(x)))
    const headers = ['Type', 'Reason', 'Age', 'From', 'Message']
    const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
    const row = (cells: string[]): string => `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')}`.trimEnd()
    w.lines.push(row(headers), row(headers.map((h) => '-'.repeat(h.length))), ...rows.map(row))
  }
  return w.lines.join('\n') + '\n'
}
