// Output formats shared by the commands: -o json|yaml are machine-readable and the only thing on
// stdout; tables adapt to the terminal.
import {Document, visit} from 'yaml'
import {escapeRawInQuotes, hasControls} from '../../util/terminal-text.js'

export type OutputFormat = 'table' | 'wide' | 'json' | 'yaml' | 'name'

// Text from manifests and the runtime is escaped here as in tables (terminal-text.ts), in the
// format's own escapes, so that a bidi override or a C1 control never reaches a terminal raw and
// what a parser reads back is the same value.

export function toJson(value: unknown): string {
  return escapeRawInQuotes(JSON.stringify(value, null, 2)) + '\n'
}

export function toYaml(value: unknown): string {
  const doc = new Document(value)
  let quoted = false
  // Every string (key or value) holding such a character is written double-quoted, the one
  // YAML style with escapes; every raw one left in the text is then inside such a string.
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value !== 'string' || !hasControls(node.value)) return
      node.type = 'QUOTE_DOUBLE'
      quoted = true
    },
  })
  const text = doc.toString()
  return quoted ? escapeRawInQuotes(text) : text
}

/** Colour only for a terminal, and never with NO_COLOR set (CLI.md). */
export function useColor(stream: NodeJS.WriteStream = process.stdout): boolean {
  return Boolean(stream.isTTY) && !process.env['NO_COLOR'] && process.env['TERM'] !== 'dumb'
}
