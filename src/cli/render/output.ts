// Output formats shared by the commands: -o json|yaml are machine-readable and the only thing on
// stdout; tables adapt to the terminal.
import {stringify} from 'yaml'

export type OutputFormat = 'table' | 'wide' | 'json' | 'yaml' | 'name'

export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n'
}

export function toYaml(value: unknown): string {
  return stringify(value)
}

/** Colour only for a terminal, and never with NO_COLOR set (CLI.md). */
export function useColor(stream: NodeJS.WriteStream = process.stdout): boolean {
  return Boolean(stream.isTTY) && !process.env['NO_COLOR'] && process.env['TERM'] !== 'dumb'
}
