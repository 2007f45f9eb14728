// The command line as a kubectl user types it, read into kube-node's commands before oclif sees
// it: `help run` is `run --help`; `get pod/web`, `get po web`, `describe pods web` and
// `delete pods/web` name the pod commands; `get events` is `events`. A first word that is no
// command, or a resource kube-node does not serve, is one sentence with a suggestion instead of
// oclif's `command describe:pods:etcd not found`. Pure.
import {escapeControls} from '../util/terminal-text.js'

export interface Commands {
  /** Every command id and alias, with spaces between words (`get pods`, `ps`). */
  readonly names: readonly string[]
  /** Every flag spelling that takes a value (`-n`, `--root-dir`), to find the resource word after them. */
  readonly valueFlags?: ReadonlySet<string>
  /** The commands (as in `names`) that take no positional argument, and whether each has -f. */
  readonly noArgs?: ReadonlyMap<string, {filename: boolean}>
}

export type ArgvResult = {argv: string[]} | {error: string}

const POD_WORDS = new Set(['pods', 'pod', 'po'])
const EVENT_WORDS = new Set(['events', 'event', 'ev'])
/** The verbs whose second word is a resource, and the command each resource means. */
const RESOURCE_VERBS: Readonly<Record<string, {pods: string; events?: string}>> = {
  get: {pods: 'get pods', events: 'events'},
  describe: {pods: 'describe pod'},
  delete: {pods: 'delete pod'},
}
const MANIFEST_FILE = /\.(ya?ml|json)$/i

/** Where the resource word is after the verb (kubectl allows flags before it: `get -n x pods`), if anywhere. */
function resourceIndex(argv: readonly string[], valueFlags: ReadonlySet<string>): number | undefined {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!
    if (w === '--') return undefined
    if (!w.startsWith('-')) return i
    if (valueFlags.has(w)) i++
  }
  return undefined
}

/** Edit distance, for "did you mean". */
export function distance(a: string, b: string): number {
  const row = Array.from({length: b.length + 1}, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = cur
    }
  }
  return row[b.length]!
}

/** The closest of `options` to `word`, if close enough to be a likely typo or prefix. */
export function closest(word: string, options: readonly string[]): string | undefined {
  let best: string | undefined
  let bestScore = Infinity
  for (const o of options) {
    const d = o.startsWith(word) && word.length >= 2 ? 0.5 : distance(word, o)
    if (d < bestScore) [best, bestScore] = [o, d]
  }
  return best !== undefined && bestScore <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined
}

function quoted(word: string): string {
  return JSON.stringify(word)
}

function resource(verb: string, word: string, rest: string[], bin: string): ArgvResult {
  const spec = RESOURCE_VERBS[verb]!
  const slash = word.indexOf('/')
  const [kind, name] = slash === -1 ? [word, undefined] : [word.slice(0, slash), word.slice(slash + 1)]
  const withName = (command: string): string[] => [...command.split(' '), ...(name ? [name] : []), ...rest]
  if (POD_WORDS.has(kind)) return {argv: withName(spec.pods)}
  if (spec.events !== undefined && EVENT_WORDS.has(kind)) return {argv: withName(spec.events)}
  const known = spec.events ? ['pods', 'events'] : ['pods']
  const hint = closest(kind, [...known, ...POD_WORDS, ...(spec.events ? EVENT_WORDS : [])])
  const suggestion = hint ? `; did you mean ${bin} ${verb} ${POD_WORDS.has(hint) ? 'pods' : 'events'}?` : `; try ${bin} ${verb} pods`
  return {error: `${bin} ${verb} knows ${known.join(' and ')}, not ${quoted(kind)}${suggestion}`}
}

/**
 * Reads `argv` (without node and the script) into the command line oclif runs, or an error
 * sentence (escaped for the terminal: it quotes what the user typed).
 */
export function kubectlArgv(argv: readonly string[], commands: Commands, bin: string): ArgvResult {
  const r = read(argv, commands, bin)
  return 'error' in r ? {error: escapeControls(r.error)} : r
}

function read(argv: readonly string[], commands: Commands, bin: string): ArgvResult {
  const [first, second] = argv
  if (first === undefined || first.startsWith('-')) return {argv: [...argv]}
  if (first === 'help') {
    const words = argv.slice(1)
    if (words.length === 0) return {argv: ['--help']}
    const r = read([...words, '--help'], commands, bin)
    return 'error' in r ? r : {argv: [...r.argv.filter((w) => !w.startsWith('-')), '--help']}
  }
  if (Object.hasOwn(RESOURCE_VERBS, first)) {
    const at = resourceIndex(argv, commands.valueFlags ?? new Set())
    if (at !== undefined) return resource(first, argv[at]!, [...argv.slice(1, at), ...argv.slice(at + 1)], bin)
    if (!argv.includes('--help') && !argv.includes('-h')) {
      return {error: `${bin} ${first} needs a resource type: ${RESOURCE_VERBS[first]!.events ? 'pods or events' : 'pods'}, e.g. ${bin} ${first} pods`}
    }
  }
  const firstWords = new Set(commands.names.map((n) => n.split(' ')[0]!))
  const bare = commands.noArgs?.get(first)
  // oclif would read `run etcd.yaml` as a command named `run etcd.yaml`.
  if (bare && second !== undefined && !second.startsWith('-')) {
    if (bare.filename) return {error: `${bin} ${first} takes manifests with -f: ${bin} ${first} -f ${second}`}
    return {error: `${bin} ${first} takes no argument (got ${quoted(second)}); see ${bin} help ${first}`}
  }
  if (firstWords.has(first)) return {argv: [...argv]}
  if (MANIFEST_FILE.test(first)) return {error: `${quoted(first)} is not a command; to run a manifest use ${bin} run -f ${first}`}
  const hint = closest(first, [...firstWords])
  return {error: `unknown command ${quoted(first)}${hint ? `; did you mean ${bin} ${hint}?` : ''} (${bin} --help lists the commands)`}
}
