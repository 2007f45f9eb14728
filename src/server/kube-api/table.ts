// The `Table` form (meta.k8s.io/v1) kubectl asks for, so `kubectl get pods` (and `-o wide`, `-w`)
// prints the columns and the STATUS a cluster prints: the row logic is the API server's printPod
// (pkg/printers/internalversion/printers.go). The server sends every column; kubectl hides the
// priority-1 ones unless `-o wide`. Pure: `now` is given.
import type {Event, Pod} from '../../api/types.js'
import {timestampSince} from '../../util/human-duration.js'
import {escapeControls} from '../../util/terminal-text.js'

export interface ColumnDefinition {
  name: string
  type: string
  format: string
  description: string
  priority: number
}

export interface TableRow {
  cells: unknown[]
  conditions?: Array<{type: string; status: string}>
  object?: unknown
}

export interface Table {
  kind: 'Table'
  apiVersion: 'meta.k8s.io/v1'
  metadata: {resourceVersion: string}
  columnDefinitions: ColumnDefinition[]
  rows: TableRow[]
}

/** What each row carries of its object: `includeObject=None|Metadata|Object` (Metadata by default). */
export type IncludeObject = 'None' | 'Metadata' | 'Object'

const col = (name: string, description: string, priority = 0, format = ''): ColumnDefinition => ({name, type: 'string', format, description, priority})

export const POD_COLUMNS: readonly ColumnDefinition[] = [
  col('Name', 'Name must be unique within a namespace.', 0, 'name'),
  col('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
  col('Status', 'The aggregate status of the containers in this pod.'),
  col('Restarts', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
  col('Age', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
  col('IP', 'IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
  col('Node', "NodeName indicates in which node this pod is scheduled.", 1),
  col('Nominated Node', 'nominatedNodeName is set only when this pod preempts other pods on the node.', 1),
  col('Readiness Gates', 'If specified, all readiness gates will be evaluated for pod readiness.', 1),
]

export const EVENT_COLUMNS: readonly ColumnDefinition[] = [
  col('Last Seen', 'The time at which the most recent occurrence of this event was recorded.'),
  col('Type', 'Type of this event (Normal, Warning).'),
  col('Reason', 'A short, machine understandable string that gives the reason for the transition into the object\'s current status.'),
  col('Object', 'The object that this event is about.'),
  col('Subobject', 'The field of the object this event is about.', 1),
  col('Source', 'The component reporting this event.', 1),
  col('Message', 'A human-readable description of the status of this operation.'),
  col('First Seen', 'The time at which the event was first recorded.', 1),
  col('Count', 'The number of times this event has occurred.', 1),
  col('Name', 'Name must be unique within a namespace.', 1),
]

const laterOf = (a: string, b: string | undefined): string => (b && Date.parse(b) > (Date.parse(a) || 0) ? b : a)

/** The STATUS, READY and RESTARTS of a pod as the API server prints them. */
export function podSummary(pod: Pod, now: number): {ready: string; status: string; restarts: string} {
  const spec = pod.spec
  const st = pod.status ?? {}
  let reason = st.reason || st.phase || ''
  const inits = new Map((spec?.initContainers ?? []).map((c) => [c.name, c]))
  const sidecar = (name: string): boolean => inits.get(name)?.restartPolicy === 'Always'
  let total = spec?.containers.length ?? 0
  for (const c of inits.values()) if (c.restartPolicy === 'Always') total++
  let ready = 0
  let restarts = 0
  let sidecarRestarts = 0
  let lastRestart = ''
  let lastSidecarRestart = ''
  let initializing = false
  const initStatuses = st.initContainerStatuses ?? []
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]!
    restarts += c.restartCount ?? 0
    lastRestart = laterOf(lastRestart, c.lastState?.terminated?.finishedAt)
    if (sidecar(c.name)) {
      sidecarRestarts += c.restartCount ?? 0
      lastSidecarRestart = laterOf(lastSidecarRestart, c.lastState?.terminated?.finishedAt)
    }
    const t = c.state?.terminated
    if (t && t.exitCode === 0) continue
    if (sidecar(c.name) && c.started) {
      if (c.ready) ready++
      continue
    }
    if (t) reason = t.reason ? `Init:${t.reason}` : t.signal ? `Init:Signal:${t.signal}` : `Init:ExitCode:${t.exitCode}`
    else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') reason = `Init:${c.state.waiting.reason}`
    else reason = `Init:${i}/${inits.size}`
    initializing = true
    break
  }
  const initialized = (st.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True')
  if (!initializing || initialized) {
    restarts = sidecarRestarts
    lastRestart = lastSidecarRestart
    let hasRunning = false
    const statuses = st.containerStatuses ?? []
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!
      restarts += c.restartCount ?? 0
      lastRestart = laterOf(lastRestart, c.lastState?.terminated?.finishedAt)
      const t = c.state?.terminated
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason
      else if (t && t.reason) reason = t.reason
      else if (t) reason = t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode}`
      else if (c.ready && c.state?.running) {
        hasRunning = true
        ready++
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = (st.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady'
    }
  }
  if (pod.metadata?.deletionTimestamp && st.phase !== 'Succeeded' && st.phase !== 'Failed') reason = 'Terminating'
  const restartsText = restarts !== 0 && lastRestart ? `${restarts} (${timestampSince(lastRestart, now)} ago)` : String(restarts)
  return {ready: `${ready}/${total}`, status: reason, restarts: restartsText}
}

export function podCells(pod: Pod, now: number): unknown[] {
  const {ready, status, restarts} = podSummary(pod, now)
  const st = pod.status
  const gates = pod.spec?.readinessGates ?? []
  const gatesText =
    gates.length === 0
      ? '<none>'
      : `${gates.filter((g) => (st?.conditions ?? []).find((c) => c.type === g.conditionType)?.status === 'True').length}/${gates.length}`
  return [
    pod.metadata?.name ?? '',
    ready,
    status,
    restarts,
    timestampSince(pod.metadata?.creationTimestamp, now),
    st?.podIPs?.[0]?.ip || st?.podIP || '<none>',
    pod.spec?.nodeName || '<none>',
    st?.nominatedNodeName || '<none>',
    gatesText,
  ]
}

/** kubectl prints cells as they come: runtime reasons and messages that quote input are escaped as kube-node's own tables are. */
function safeCell(cell: unknown): unknown {
  return typeof cell === 'string' ? escapeControls(cell) : cell
}

function rowObject(obj: Pod | Event, include: IncludeObject): unknown {
  if (include === 'None') return undefined
  if (include === 'Object') return obj
  return {kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata ?? {}}
}

export function podRow(pod: Pod, now: number, include: IncludeObject): TableRow {
  const phase = pod.status?.phase
  const object = rowObject(pod, include)
  return {
    cells: podCells(pod, now).map(safeCell),
    // As the API server marks finished pods (podSuccessConditions, podFailedConditions).
    ...(phase === 'Succeeded' || phase === 'Failed' ? {conditions: [{type: 'Completed', status: 'True'}]} : {}),
    ...(object !== undefined ? {object} : {}),
  }
}

export function eventCells(e: Event, now: number): unknown[] {
  const last = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp
  const count = e.count ?? 1
  const lastSeen = count > 1 ? `${timestampSince(last, now)} (x${count} over ${timestampSince(e.firstTimestamp, now)})` : timestampSince(last, now)
  const io = e.involvedObject
  const source = [e.source?.component, e.source?.host].filter((s) => s).join(', ')
  return [
    lastSeen,
    e.type ?? '',
    e.reason ?? '',
    `${(io.kind ?? '').toLowerCase()}/${io.name ?? ''}`,
    io.fieldPath ?? '',
    source,
    (e.message ?? '').trim(),
    timestampSince(e.firstTimestamp, now),
    String(count),
    e.metadata?.name ?? '',
  ]
}

export function eventRow(e: Event, now: number, include: IncludeObject): TableRow {
  const object = rowObject(e, include)
  return {cells: eventCells(e, now).map(safeCell), ...(object !== undefined ? {object} : {})}
}

export function table(columns: readonly ColumnDefinition[], rows: TableRow[], resourceVersion: string): Table {
  return {kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {resourceVersion}, columnDefinitions: [...columns], rows}
}
