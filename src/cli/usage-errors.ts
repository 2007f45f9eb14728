// oclif's own usage errors in kube-node's words: one sentence that says what is missing or wrong
// and what to type, instead of `Missing 1 required arg:` with the argument on a line that the
// one-line error handler drops. Pure.
import {closest} from './kubectl-argv.js'

export interface UsageContext {
  /** The command as typed, e.g. `kube-node delete pod`. */
  command: string
  /** The command's flag names (without dashes), for a suggestion. */
  flags: readonly string[]
}

/** The sentence for an oclif usage error, or undefined when `message` is not one. */
export function usageSentence(message: string, ctx: UsageContext): string | undefined {
  const missing = /^Missing \d+ required args?:\n(\S+)/.exec(message)
  if (missing) return `${ctx.command} needs the ${missing[1]!.toUpperCase()} argument; see ${ctx.command} --help`
  const unexpected = /^Unexpected arguments?: ([^\n]+)/.exec(message)
  if (unexpected) return `${ctx.command} takes no argument ${JSON.stringify(unexpected[1]!)}; see ${ctx.command} --help`
  const flag = /^Nonexistent flags?: (-{1,2})([^\s,=]+)/.exec(message)
  if (flag) {
    const hint = flag[1] === '--' ? closest(flag[2]!, ctx.flags) : undefined
    return `${ctx.command} has no flag ${flag[1]}${flag[2]}${hint ? `; did you mean --${hint}?` : ''} (see ${ctx.command} --help)`
  }
  return undefined
}
