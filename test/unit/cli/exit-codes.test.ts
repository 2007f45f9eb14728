// Exit code 2 means "bad input, nothing was changed": oclif's own usage errors (unknown flags,
// missing or extra arguments, bad flag values) and kube-node's duration flags give 2, with one
// sentence on stderr; a runtime failure such as a port in use gives 1.
import {dirname, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {Args, Config, Errors, Flags, Parser} from '@oclif/core'
import {beforeAll, describe, expect, it, vi} from 'vitest'
import {describeError, exitCodeFor} from '../../../src/cli/exit-codes.js'
import {durationFlag} from '../../../src/cli/flags.js'
import {InvalidInputError, ListenError} from '../../../src/util/errors.js'
import Run from '../../../src/commands/run.js'
import Logs from '../../../src/commands/logs.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

const spec = {
  flags: {
    filename: Flags.string({char: 'f', multiple: true}),
    'max-pods': Flags.integer({min: 1}),
    timeout: durationFlag({summary: 'How long.', default: '5m', examples: '90s or 5m'}),
    every: durationFlag({summary: 'How often.', default: '20s', positive: true}),
  },
  args: {pod: Args.string({required: true})},
  strict: true,
}

/** The error oclif's parser throws for `argv`. */
async function parseError(argv: string[]): Promise<unknown> {
  try {
    await Parser.parse(argv, spec)
  } catch (err) {
    return err
  }
  throw new Error(`${argv.join(' ')} parsed without an error`)
}

describe('exitCodeFor oclif parse errors', () => {
  it.each<[string, string[]]>([
    ['an unknown flag', ['web', '--nonexistent-flag']],
    ['a missing required argument', []],
    ['an unexpected argument', ['web', 'extra']],
    ['a flag without its value', ['web', '--max-pods']],
    ['a value oclif cannot parse', ['web', '--max-pods', 'abc']],
    ['a value below the minimum', ['web', '--max-pods', '0']],
  ])('%s → exit 2', async (_name, argv) => {
    const err = await parseError(argv)
    expect(err).toBeInstanceOf(Errors.CLIError)
    expect(exitCodeFor(err)).toBe(2)
  })

  it('an oclif error with another exit code is a failure, not invalid input', () => {
    expect(exitCodeFor(new Errors.CLIError('boom', {exit: 3}))).toBe(1)
  })

  it('a port in use is a failure (exit 1), not invalid input', () => {
    expect(exitCodeFor(new ListenError('cannot listen on 127.0.0.1:10255 (--port): address already in use'))).toBe(1)
  })

  it('a bad integer is one sentence naming the flag', async () => {
    expect(describeError(await parseError(['web', '--max-pods', 'abc']))).toBe('--max-pods: Expected an integer but received: abc')
  })
})

describe('durationFlag', () => {
  it('parses Go-style durations to milliseconds and applies the default written as text', async () => {
    const {flags} = await Parser.parse(['web', '--timeout', '1m30s'], spec)
    expect(flags.timeout).toBe(90_000)
    expect(flags.every).toBe(20_000)
  })

  it('accepts 0 unless the flag is positive', async () => {
    expect((await Parser.parse(['web', '--timeout', '0s'], spec)).flags.timeout).toBe(0)
    expect(describeError(await parseError(['web', '--every', '0s']))).toBe('--every: "0s" is not a duration such as 20s or 1m')
  })

  it('refuses a non-duration with exit 2 and one sentence naming the flag and the value', async () => {
    const err = await parseError(['web', '--timeout', 'abc'])
    expect(exitCodeFor(err)).toBe(2)
    expect(describeError(err)).toBe('--timeout: "abc" is not a duration such as 90s or 5m')
  })
})

describe('kube-node commands with bad usage', () => {
  let config: Config
  beforeAll(async () => {
    config = await Config.load(ROOT)
  })

  /** Runs the command in-process: its exit code and what it wrote to stderr. */
  type Runner = (argv: string[], config: Config) => Promise<unknown>
  const run: Runner = (argv, c) => Run.run(argv, c)
  const logs: Runner = (argv, c) => Logs.run(argv, c)

  async function exitOf(command: Runner, argv: string[]): Promise<{code: unknown; stderr: string}> {
    let stderr = ''
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk)
      return true
    })
    try {
      await command(argv, config)
      return {code: 0, stderr}
    } catch (err) {
      // BaseCommand.catch ends with this.exit(code), which throws oclif's ExitError.
      return {code: err instanceof Errors.ExitError ? err.oclif.exit : err, stderr}
    } finally {
      vi.mocked(process.stderr.write).mockRestore()
    }
  }

  it.each<[string, Runner, string[], RegExp]>([
    ['run --nonexistent-flag', run, ['--nonexistent-flag'], /^error: kube-node run has no flag --nonexistent-flag \(see kube-node run --help\)\n$/],
    ['run --dry-rn', run, ['--dry-rn'], /^error: kube-node run has no flag --dry-rn; did you mean --dry-run\? \(see kube-node run --help\)\n$/],
    ['logs without its pod argument', logs, [], /^error: logs needs a pod name, e.g. kube-node logs web \(or a selector: -l app=web\)\n$/],
    ['logs with an unexpected argument', logs, ['web', 'extra'], /^error: kube-node logs takes no argument "extra"; see kube-node logs --help\n$/],
    ['run --timeout abc', run, ['-f', 'pod.yaml', '--timeout', 'abc'], /^error: --timeout: "abc" is not a duration such as 90s or 5m\n$/],
  ])('%s exits 2 with one sentence', async (_name, command, argv, stderr) => {
    const r = await exitOf(command, argv)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(stderr)
  })
})

describe('an invalid manifest named by a hostile file name', () => {
  const issue = {location: '/m/a\nerror: fake.yaml', document: 0, field: 'spec.containers[0].image', message: 'must be set'}

  it('keeps the whole sentence on one line, the newline shown as \\n', () => {
    expect(describeError(new InvalidInputError([issue]))).toBe('/m/a\\nerror: fake.yaml, document 0, field spec.containers[0].image: must be set')
  })

  it('does the same for each line of a list of problems', () => {
    const lines = describeError(new InvalidInputError([issue, {...issue, document: 1}])).split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[1]).toBe('  /m/a\\nerror: fake.yaml, document 0, field spec.containers[0].image: must be set')
  })
})
