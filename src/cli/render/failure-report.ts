// The failure report `run` prints after its table for each pod that failed or missed its goal:
// plain, indented text; everything a container or the runtime said is escaped.
import type {FailureReport} from '../../services/failure-report.js'
import {escapeControls} from '../../util/terminal-text.js'

/** Annotation carrying the report, as JSON, on the pod in `run -o json|yaml`. */
export const FAILURE_REPORT_ANNOTATION = 'kube-node.io/failure-report'

export function renderFailureReport(r: FailureReport): string {
  const out: string[] = []
  const line = (indent: number, text: string): number => out.push(`${' '.repeat(indent)}${escapeControls(text)}`)
  line(0, `${r.pod} ${r.outcome === 'timeout' ? 'did not reach its goal' : 'failed'}: ${r.reason}`)
  line(2, `phase: ${r.phase}`)
  for (const c of r.containers) {
    line(2, `container ${c.name}: ${c.state}`)
    if (c.exitCode !== undefined) line(4, `exit code: ${c.exitCode}`)
    if (c.restartCount > 0) line(4, `restarts: ${c.restartCount}`)
    if (c.terminationMessage) line(4, `termination message: ${c.terminationMessage.trimEnd().split('\n').join(' | ')}`)
    if (c.pullError) line(4, `pull error: ${c.pullError}`)
    if (c.lastProbeFailure) line(4, `last probe failure: ${c.lastProbeFailure}`)
    if (c.logTail.length > 0) {
      line(4, `last ${c.logTail.length} log lines:`)
      for (const l of c.logTail) line(6, `| ${l}`)
    }
    if (c.previousLogTail && c.previousLogTail.length > 0) {
      line(4, `last ${c.previousLogTail.length} log lines of the attempt before:`)
      for (const l of c.previousLogTail) line(6, `| ${l}`)
    }
  }
  line(2, `more: ${r.more.join('; ')}`)
  return out.join('\n') + '\n'
}
