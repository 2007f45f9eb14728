// Flag types shared by commands. Values are checked while oclif parses the command line, so a
// bad value stops every command before it does anything (exit 2).
import {Flags, type Interfaces} from '@oclif/core'
import {parseDuration} from '../util/duration.js'
import {InvalidInputError} from '../util/errors.js'

interface DurationOptions extends Interfaces.CustomOptions {
  /** 0 is refused too (intervals, deadlines). */
  positive?: boolean
  /** Shown in the error, e.g. '90s or 5m'. */
  examples?: string
  /** The longest accepted (ms). */
  maxMs?: number
}

const duration = Flags.custom<number, DurationOptions>({
  async parse(input, _ctx, opts) {
    const ms = parseDuration(input)
    if (ms === undefined || (opts.positive === true && ms <= 0)) {
      throw new InvalidInputError(`--${opts.name}: "${input}" is not a duration such as ${opts.examples ?? '20s or 1m'}`)
    }
    if (opts.maxMs !== undefined && ms > opts.maxMs) throw new InvalidInputError(`--${opts.name}: "${input}" is longer than ${opts.maxMs / 1000}s, the most it may be`)
    return ms
  },
})

/**
 * A Go-style duration ("90s", "1h30m", a bare number is seconds) parsed to milliseconds.
 * `default` is written as text: help and the manifest show it as written.
 */
export function durationFlag(options: {summary: string; default: string; helpGroup?: string} & DurationOptions): Interfaces.OptionFlag<number, DurationOptions> {
  const {default: text, ...rest} = options
  const ms = parseDuration(text)
  if (ms === undefined) throw new Error(`default ${JSON.stringify(text)} is not a duration`)
  // oclif does not pass defaults through parse; a function defaultHelp is what help and the
  // manifest print instead of the number.
  return duration({...rest, default: ms, defaultHelp: async () => text})
}

/**
 * `--validate`: what unknown manifest fields are (kubectl's strict|warn|ignore). No default here:
 * an unset flag leaves the config file's `staticPodValidation`, then strict.
 */
export const validateFlag = Flags.option({
  options: ['strict', 'warn', 'ignore'] as const,
  summary: 'Unknown manifest fields: an error (strict, the default), a warning, or ignored.',
})
