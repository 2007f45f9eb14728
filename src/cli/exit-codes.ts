// The one place where errors become exit codes (CLI.md): 2 for invalid input (nothing was
// changed), 1 for everything else that went wrong.
import {Errors} from '@oclif/core'
import {KubeNodeError, InvalidInputError, formatIssue} from '../util/errors.js'
import {escapeControls} from '../util/terminal-text.js'

export const EXIT_OK = 0
export const EXIT_FAILED = 1
export const EXIT_INVALID = 2

export function exitCodeFor(err: unknown): number {
  if (err instanceof InvalidInputError) return EXIT_INVALID
  // oclif's usage errors (unknown flags, missing or extra arguments, bad flag values) are
  // CLIErrors with exit code 2; @oclif/core 4 does not export their CLIParseError subclass.
  // An oclif error with another exit code is a failure like any other.
  if (err instanceof Errors.CLIError && err.oclif.exit === EXIT_INVALID) return EXIT_INVALID
  if (err instanceof KubeNodeError) return EXIT_FAILED
  return EXIT_FAILED
}

/** One sentence for a person. The full issue list of an InvalidInputError goes one per line. */
export function describeError(err: unknown): string {
  // Each issue escaped whole: a file name or value holding a newline stays on its own line,
  // never cut short nor shown as a line of its own that looks like another error.
  if (err instanceof InvalidInputError && err.issues.length > 1) {
    return [`${err.issues.length} problems in the manifests:`, ...err.issues.map((i) => `  ${escapeControls(formatIssue(i))}`)].join('\n')
  }
  if (err instanceof InvalidInputError && err.issues.length === 1) return escapeControls(formatIssue(err.issues[0]!))
  if (err instanceof Error) {
    // oclif rewrites a flag value's error to "Parsing --name \n\t<detail>\nSee more help with
    // --help": the detail is the sentence, named by its flag.
    const [, name, detail] = /^Parsing --([\w-]+) *\n\t([^\n]*)/.exec(err.message) ?? []
    if (name !== undefined && detail !== undefined) return detail.startsWith(`--${name}`) ? detail : `--${name}: ${detail}`
    return err.message.split('\n')[0] ?? String(err)
  }
  return String(err)
}
