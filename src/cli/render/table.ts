// Plain, aligned columns like kubectl's: stable text when piped; colour only for a terminal.
import chalk from 'chalk'
import {escapeControls} from '../../util/terminal-text.js'

export interface TableOptions {
  color: boolean
  /** Colours a cell; called only when color is on. */
  paint?: (column: string, value: string) => string
}

export function renderTable(headers: string[], rawRows: string[][], opts: TableOptions): string {
  // Cells come from manifests and the runtime: escaped before they are measured or painted.
  const rows = rawRows.map((r) => r.map(escapeControls))
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[], header: boolean): string =>
    cells
      .map((c, i) => {
        const padded = i === cells.length - 1 ? c : c.padEnd(widths[i]!)
        if (!opts.color) return padded
        if (header) return chalk.bold(padded)
        return opts.paint ? padded.replace(c, opts.paint(headers[i]!, c)) : padded
      })
      .join('   ')
      .trimEnd()
  return [line(headers, true), ...rows.map((r) => line(r, false))].join('\n') + '\n'
}

/** Green for healthy states, red for failures, yellow for the rest. */
export function paintStatus(column: string, value: string): string {
  if (column !== 'STATUS' && column !== 'RESULT') return value
  if (/^(Running|Completed|Succeeded|ok|Ready)$/.test(value)) return chalk.green(value)
  if (/(Err|Error|Fail|BackOff|OOMKilled|timeout|Invalid)/i.test(value)) return chalk.red(value)
  return chalk.yellow(value)
}
