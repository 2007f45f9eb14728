// `run`'s result: one row per pod with the outcome, or the pods as a v1 List for -o json|yaml.
import type {Pod} from '../../api/types.js'
import type {PodRunResult} from '../../loop/run-once.js'
import {podRow} from './pod-row.js'
import {paintStatus, renderTable} from './table.js'
import {toJson, toYaml} from './output.js'
import {toPodList} from '../../node/get.js'

function asPod(r: PodRunResult): Pod {
  return {apiVersion: 'v1', kind: 'Pod', metadata: r.sp.pod.metadata, spec: r.sp.pod.spec, status: r.status}
}

export function renderRunResults(results: PodRunResult[], format: 'table' | 'json' | 'yaml', color: boolean, now: number): string {
  if (format === 'json') return toJson(toPodList(results.map(asPod)))
  if (format === 'yaml') return toYaml(toPodList(results.map(asPod)))
  const rows = results.map((r) => {
    const row = podRow(asPod(r), now)
    const result = r.outcome === 'done' ? 'ok' : r.outcome
    return [row.name, row.ready, row.status, String(row.restarts), row.ip, result]
  })
  return renderTable(['NAME', 'READY', 'STATUS', 'RESTARTS', 'IP', 'RESULT'], rows, {color, paint: paintStatus})
}
