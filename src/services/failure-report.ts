// Why a pod of `run` failed or missed its goal, gathered for the person reading CI output: the
// failing containers' states and exit codes, their termination messages, the last lines of their
// logs (and of the attempt before, for a crash loop), the last probe failure and the pull error,
// with the commands that tell more.
import type {ContainerStatus} from '../api/types.js'
import type {PodEvent} from '../api/events.js'
import type {PodRunResult} from '../loop/run-once.js'
import type {RuntimeContainer} from '../kuberuntime/model.js'
import {streamContainerLog} from '../kuberuntime/logs.js'
import {LineCollector} from '../kuberuntime/log-pieces.js'
import {allByName} from '../pod/restart-policy.js'
import {readPodEvents} from '../store/event-store.js'
import {isPlainlyInside} from '../util/contained-path.js'
import type {KubeNode} from '../node/create-node.js'
import {shellCommand} from '../util/shell-quote.js'

export const LOG_TAIL_LINES = 20
export const PREVIOUS_LOG_TAIL_LINES = 10
/** A report shows at most this much of one log line. */
export const LOG_LINE_MAX_BYTES = 16 * 1024

export interface ContainerFailure {
  name: string
  /** e.g. `waiting: CrashLoopBackOff` or `terminated: Error`. */
  state: string
  exitCode?: number
  /** How often it was restarted: a crash loop shows here. */
  restartCount: number
  terminationMessage?: string
  /** The newest instance's last log lines. */
  logTail: string[]
  /** The instance before it, when the container restarted. */
  previousLogTail?: string[]
  lastProbeFailure?: string
  pullError?: string
}

export interface FailureReport {
  pod: string
  outcome: 'failed' | 'timeout'
  reason: string
  phase: string
  containers: ContainerFailure[]
  /** Commands that tell more. */
  more: string[]
}

function stateText(cs: ContainerStatus): string {
  const s = cs.state
  if (s?.waiting) return `waiting: ${s.waiting.reason ?? ''}${s.waiting.message ? ` (${s.waiting.message})` : ''}`
  if (s?.terminated) return `terminated: ${s.terminated.reason ?? ''}, exit code ${s.terminated.exitCode}`
  if (s?.running) return cs.ready ? 'running' : 'running, not ready'
  return 'unknown'
}

/** The last `lines` of a container instance's log, read only below --pod-logs-dir. */
async function logTail(node: KubeNode, rc: RuntimeContainer | undefined, lines: number): Promise<string[]> {
  if (!rc?.logPath || !isPlainlyInside(node.config.podLogsDir, rc.logPath)) return []
  const out = new LineCollector(LOG_LINE_MAX_BYTES)
  await streamContainerLog(rc.logPath, {tail: lines, timestamps: false, follow: false}, out.write, node.clock, node.fs).catch(() => undefined)
  return out.lines
}

function newest(events: readonly PodEvent[], match: (e: PodEvent) => boolean): PodEvent | undefined {
  return events.filter(match).sort((a, b) => b.lastTimestamp - a.lastTimestamp)[0]
}

export async function failureReport(node: KubeNode, r: PodRunResult, globalArgs: readonly string[] = []): Promise<FailureReport> {
  const {uid, name} = r.sp.pod.metadata
  const [observed, events] = await Promise.all([node.cache.getNewerThan(uid, node.clock.now()).catch(() => undefined), readPodEvents(node.fs, node.config.rootDir, uid).catch(() => undefined)])
  const statuses = [...(r.status.initContainerStatuses ?? []), ...(r.status.containerStatuses ?? [])]
  const failing = statuses.filter((cs) => !(cs.ready && cs.state?.running) && !(cs.state?.terminated?.exitCode === 0))
  const containers = await Promise.all(
    failing.map(async (cs): Promise<ContainerFailure> => {
      const [current, previous] = allByName(observed?.containers ?? [], cs.name)
      const fieldPath = (e: PodEvent): boolean => e.fieldPath?.endsWith(`{${cs.name}}`) === true
      const probe = newest(events?.events ?? [], (e) => e.reason === 'Unhealthy' && fieldPath(e))
      const pull = newest(events?.events ?? [], (e) => e.reason === 'Failed' && e.message.startsWith('Failed to pull image') && fieldPath(e))
      const terminated = cs.state?.terminated ?? cs.lastState?.terminated
      const report: ContainerFailure = {name: cs.name, state: stateText(cs), restartCount: cs.restartCount, logTail: await logTail(node, current, LOG_TAIL_LINES)}
      if (terminated) report.exitCode = terminated.exitCode
      if (terminated?.message) report.terminationMessage = terminated.message
      if (previous && cs.restartCount > 0) report.previousLogTail = await logTail(node, previous, PREVIOUS_LOG_TAIL_LINES)
      if (probe) report.lastProbeFailure = probe.message
      if (pull) report.pullError = pull.message
      return report
    }),
  )
  const manifest = r.sp.manifestName
  // Each with the global flags the user gave, so the paste asks the same node.
  const cmd = (...args: string[]): string => shellCommand(['kube-node', ...args, ...globalArgs])
  const more = [cmd('describe', 'pod', manifest), cmd('events', manifest)]
  for (const c of containers) {
    if (c.logTail.length > 0 || c.exitCode !== undefined) more.push(cmd('logs', manifest, '-c', c.name))
    if (c.previousLogTail) more.push(cmd('logs', manifest, '-c', c.name, '--previous'))
  }
  return {pod: name, outcome: r.outcome === 'timeout' ? 'timeout' : 'failed', reason: r.reason, phase: r.status.phase ?? 'Unknown', containers, more}
}

/** A report for each pod that failed or missed its goal; none for pods that made it. */
export async function failureReports(node: KubeNode, results: readonly PodRunResult[], globalArgs: readonly string[] = []): Promise<Map<string, FailureReport>> {
  const failed = results.filter((r) => r.outcome !== 'done')
  const reports = await Promise.all(failed.map((r) => failureReport(node, r, globalArgs)))
  return new Map(reports.map((rep, i) => [failed[i]?.sp.pod.metadata.uid ?? '', rep]))
}
