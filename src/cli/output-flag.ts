// `-o`: kubectl's output formats, including `jsonpath=TEMPLATE` and `custom-columns=SPEC`, read
// while the command line is parsed so that a bad template stops the command (exit 2).
import {Flags, type Interfaces} from '@oclif/core'
import {InvalidInputError} from '../util/errors.js'
import type {OutputFormat} from './render/output.js'
import {parseJsonPath, type JsonPathTemplate} from './render/jsonpath.js'
import {parseCustomColumns, type Column} from './render/custom-columns.js'

export type OutputSpec = {format: OutputFormat} | {format: 'jsonpath'; template: JsonPathTemplate} | {format: 'custom-columns'; columns: Column[]}

/** Reads one `-o` value; `plain` lists the plain formats the command prints. */
export function parseOutput(text: string, plain: readonly OutputFormat[], templates: boolean): OutputSpec {
  if ((plain as readonly string[]).includes(text)) return {format: text as OutputFormat}
  const m = /^(jsonpath|custom-columns)=(.*)$/s.exec(text)
  if (templates && m) {
    return m[1] === 'jsonpath' ? {format: 'jsonpath', template: parseJsonPath(m[2]!)} : {format: 'custom-columns', columns: parseCustomColumns(m[2]!)}
  }
  const all = [...plain, ...(templates ? ['jsonpath=TEMPLATE', 'custom-columns=SPEC'] : [])]
  throw new InvalidInputError(`"${text}" is not an output format; use one of ${all.join(', ')}`)
}

/** The -o flag of a command that prints objects. */
export function outputFlag(plain: readonly OutputFormat[], templates = true): Interfaces.OptionFlag<OutputSpec> {
  const names = [...plain, ...(templates ? ['jsonpath=…', 'custom-columns=…'] : [])]
  return Flags.custom<OutputSpec>({
    char: 'o',
    summary: `Output format: ${names.join(', ')}.`,
    default: {format: plain[0]!},
    defaultHelp: async () => plain[0]!,
    parse: async (input) => parseOutput(input, plain, templates),
  })()
}
