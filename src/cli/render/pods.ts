// `get pods` and `run` results: kubectl-style tables, a v1 PodList as JSON/YAML, or names.
import type {Pod} from '../../api/types.js'
import {toPodList} from '../../node/get.js'
import {podRow} from './pod-row.js'
import {paintStatus, renderTable} from './table.js'
import {escapeControls} from '../../util/terminal-text.js'
import {toJson, toYaml, type OutputFormat} from './output.js'

export function renderPods(items: Pod[], format: OutputFormat, color: boolean, now: number): string {
  switch (format) {
    case 'json':
      return toJson(toPodList(items))
    case 'yaml':
      return toYaml(toPodList(items))
    case 'name':
      return items.map((p) => `pod/${escapeControls(p.metadata?.name ?? '')}\n`).join('')
    case 'wide': {
      const rows = items.map((p) => podRow(p, now)).map((r) => [r.name, r.ready, r.status, r.restartsText, r.age, r.ip, r.node, '<none>', readinessGates(items, r.name)])
      return renderTable(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'], rows, {color, paint: paintStatus})
    }
    case 'table': {
      if (items.length === 0) return ''
      const rows = items.map((p) => podRow(p, now)).map((r) => [r.name, r.ready, r.status, r.restartsText, r.age])
      return renderTable(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'], rows, {color, paint: paintStatus})
    }
  }
}

/** READINESS GATES as kubectl prints them: `<none>`, or how many of the pod's gates are True. */
function readinessGates(items: readonly Pod[], name: string): string {
  const pod = items.find((p) => p.metadata?.name === name)
  const gates = pod?.spec?.readinessGates ?? []
  if (gates.length === 0) return '<none>'
  const ok = gates.filter((g) => pod?.status?.conditions?.some((c) => c.type === g.conditionType && c.status === 'True')).length
  return `${ok}/${gates.length}`
}
