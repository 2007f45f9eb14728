// `run`'s result: one row per pod with the outcome, or the pods as a v1 List for -o json|yaml.
import type {Pod} from '../../api/types.js'
import type {PodRunResult} from '../../loop/run-once.js'
import {podRow} from './pod-row.js'
import {paintStatus, renderTable} from './table.js'
import {toJson, toYaml} from './output.js'
import {toPodList} from '../../services/get.js'
import type {FailureReport} from '../../services/failure-report.js'
import {FAILURE_REPORT_ANNOTATION, renderFailureReport} from './failure-report.js'

function asPod(r: PodRunResult, report: FailureReport | undefined): Pod {
  const metadata = report ? {...r.sp.pod.metadata, annotations: {...(r.sp.pod.metadata.annotations ?? {}), [FAILURE_REPORT_ANNOTATION]: JSON.stringify(report)}} : r.sp.pod.metadata
  return {apiVersion: 'v1', kind: 'Pod', metadata, spec: r.sp.pod.spec, status: r.status}
}

/**
 * The result table, then a failure report for each pod that failed or missed its goal (none on
 * success); as JSON or YAML, a v1 List whose failed pods carry their report in an annotation.
 */
export function renderRunResults(results: PodRunResult[], format: 'table' | 'json' | 'yaml', color: boolean, now: number, reports: ReadonlyMap<string, FailureReport> = new Map()): string {
  const pods = (): Pod[] => results.map((r) => asPod(r, reports.get(r.sp.pod.metadata.uid)))
  if (format === 'json') return toJson(toPodList(pods()))
  if (format === 'yaml') return toYaml(toPodList(pods()))
  const rows = results.map((r) => {
    const row = podRow(asPod(r, undefined), now)
    const result = r.outcome === 'done' ? 'ok' : r.outcome
    return [row.name, row.ready, row.status, String(row.restarts), row.ip, result]
  })
  const table = renderTable(['NAME', 'READY', 'STATUS', 'RESTARTS', 'IP', 'RESULT'], rows, {color, paint: paintStatus})
  const texts = results.map((r) => reports.get(r.sp.pod.metadata.uid)).filter((r): r is FailureReport => r !== undefined).map(renderFailureReport)
  return texts.length === 0 ? table : `${table}\n${texts.join('\n')}`
}
