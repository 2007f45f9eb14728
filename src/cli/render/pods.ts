// `get pods` and `run` results: kubectl-style tables, a v1 PodList (or one Pod when named) as
// JSON/YAML, names, or kubectl's jsonpath and custom-columns.
import type {Pod} from '../../api/types.js'
import {toPodList} from '../../services/get.js'
import {podRow, type PodRow} from './pod-row.js'
import {paintStatus, renderTable} from './table.js'
import {escapeControls} from '../../util/terminal-text.js'
import {toJson, toYaml, type OutputFormat} from './output.js'
import type {OutputSpec} from '../output-flag.js'
import {applyJsonPath} from './jsonpath.js'
import {renderCustomColumns} from './custom-columns.js'

export interface PodTableOptions {
  /** A NAMESPACE column first, as kubectl prints with -A. */
  namespaceColumn?: boolean
  /** Without the header (the rows `get -w` adds after its first table). */
  noHeader?: boolean
}

const TABLE = ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']
const WIDE = [...TABLE, 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']

function cells(p: Pod, r: PodRow, wide: boolean): string[] {
  const base = [r.name, r.ready, r.status, r.restartsText, r.age]
  return wide ? [...base, r.ip, r.node, '<none>', readinessGates(p)] : base
}

/** A pod table's text, one row per pod. */
export function renderPodTable(items: readonly Pod[], wide: boolean, color: boolean, now: number, opts: PodTableOptions = {}): string {
  const ns = opts.namespaceColumn === true
  const headers = [...(ns ? ['NAMESPACE'] : []), ...(wide ? WIDE : TABLE)]
  const rows = items.map((p) => {
    const r = podRow(p, now)
    return [...(ns ? [r.namespace] : []), ...cells(p, r, wide)]
  })
  const text = renderTable(headers, rows, {color, paint: paintStatus})
  return opts.noHeader ? text.slice(text.indexOf('\n') + 1) : text
}

export function renderPods(items: Pod[], format: OutputFormat, color: boolean, now: number, opts: PodTableOptions = {}): string {
  switch (format) {
    case 'json':
      return toJson(toPodList(items))
    case 'yaml':
      return toYaml(toPodList(items))
    case 'name':
      return items.map((p) => `pod/${escapeControls(p.metadata?.name ?? '')}\n`).join('')
    case 'wide':
      return renderPodTable(items, true, color, now, opts)
    case 'table':
      return items.length === 0 ? '' : renderPodTable(items, false, color, now, opts)
  }
}

/**
 * What `get pods` prints for an output spec. `single`: the user named exactly one pod, so -o
 * json|yaml|jsonpath see that Pod, not a list (kubectl's rule).
 */
export function renderPodOutput(items: Pod[], spec: OutputSpec, color: boolean, now: number, opts: PodTableOptions & {single?: boolean} = {}): string {
  const object = opts.single && items.length === 1 ? items[0]! : toPodList(items)
  switch (spec.format) {
    case 'jsonpath':
      // Escaped: the template prints manifest values raw, and they must not reach a terminal raw.
      return applyJsonPath(spec.template, object, escapeControls)
    case 'custom-columns':
      return items.length === 0 ? '' : renderCustomColumns(spec.columns, items)
    case 'json':
      return toJson(object)
    case 'yaml':
      return toYaml(object)
    default:
      return renderPods(items, spec.format, color, now, opts)
  }
}

/** READINESS GATES as kubectl prints them: `<none>`, or how many of the pod's gates are True. */
function readinessGates(pod: Pod): string {
  const gates = pod.spec?.readinessGates ?? []
  if (gates.length === 0) return '<none>'
  const ok = gates.filter((g) => pod.status?.conditions?.some((c) => c.type === g.conditionType && c.status === 'True')).length
  return `${ok}/${gates.length}`
}
