// kubectl's `-o custom-columns=NAME:.metadata.name,IP:.status.podIP`: one row per object, each
// column a JSONPath (braces and the leading dot optional, as kubectl allows); several values in a
// cell are joined by ",", none prints <none>. Pure.
import {InvalidInputError} from '../../util/errors.js'
import {findAll, parseJsonPath, type JsonPathTemplate} from './jsonpath.js'
import {renderTable} from './table.js'

export interface Column {
  header: string
  path: JsonPathTemplate
}

export function parseCustomColumns(spec: string): Column[] {
  if (spec.trim() === '') throw new InvalidInputError('custom-columns needs at least one column, e.g. custom-columns=NAME:.metadata.name')
  return spec.split(',').map((part) => {
    const at = part.indexOf(':')
    if (at <= 0 || at === part.length - 1) throw new InvalidInputError(`custom-columns: "${part}" is not HEADER:JSONPATH, e.g. NAME:.metadata.name`)
    let path = part.slice(at + 1).trim()
    if (!path.startsWith('{')) path = `{${path.startsWith('.') || path.startsWith('$') ? '' : '.'}${path}}`
    return {header: part.slice(0, at).trim(), path: parseJsonPath(path)}
  })
}

function cell(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? '')
}

export function renderCustomColumns(columns: readonly Column[], objects: readonly unknown[]): string {
  const rows = objects.map((o) =>
    columns.map((c) => {
      const found = findAll(c.path, o)
      return found.length === 0 ? '<none>' : found.map(cell).join(',')
    }),
  )
  return renderTable(
    columns.map((c) => c.header),
    rows,
    {color: false},
  )
}
