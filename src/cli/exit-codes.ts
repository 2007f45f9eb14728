// The one place where errors become exit codes (CLI.md): 2 for invalid input (nothing was
// changed), 1 for everything else that went wrong.
import {KubeNodeError, InvalidInputError, formatIssue} from '../util/errors.js'

export const EXIT_OK = 0
export const EXIT_FAILED = 1
export const EXIT_INVALID = 2

export function exitCodeFor(err: unknown): number {
  if (err instanceof InvalidInputError) return EXIT_INVALID
  // oclif's flag/argument parse errors are invalid input too.
  if (err instanceof Error && /^(Nonexistent flag|Unexpected argument|Expected|Missing|Flag --|Parsing --|The following error occurred)/.test(err.message)) return EXIT_INVALID
  if (err instanceof KubeNodeError) return EXIT_FAILED
  return EXIT_FAILED
}

/** One sentence for a person. The full issue list of an InvalidInputError goes one per line. */
export function describeError(err: unknown): string {
  if (err instanceof InvalidInputError && err.issues.length > 1) {
    return [`${err.issues.length} problems in the manifests:`, ...err.issues.map((i) => `  ${formatIssue(i)}`)].join('\n')
  }
  if (err instanceof Error) return err.message.split('\n')[0] ?? String(err)
  return String(err)
}
