// A cheap pass over a manifest's YAML tokens before the real parse: counts documents, tokens and
// nesting and stops at the first limit passed, so a 10 MiB bomb (`[[[[…`, a million `- `, a
// million `...`) is refused in milliseconds instead of being parsed into gigabytes. It uses the
// `yaml` package's own lexer, so it sees every separator form the parser would. Pure.
import {Lexer} from 'yaml'
import {MAX_BLOCK_DEPTH, MAX_DOCUMENTS, MAX_DOUBLE_QUOTED, MAX_FLOW_DEPTH, MAX_TOKENS} from './limits.js'

const SCALAR_MARKER = '\x1f'
const DOCUMENT_MODE = '\x02'

/** Why the text is over a limit (one sentence), or undefined when it may be parsed. */
export function prescanYaml(text: string): string | undefined {
  return prescan(text).problem
}

export interface PrescanResult {
  /** Why the text is over a limit, when it is. */
  problem?: string
  /** Characters in double-quoted scalars: what a source's budget of them is charged. */
  doubleQuoted: number
}

/** Like prescanYaml, with what a source's limits count. */
export function prescan(text: string): PrescanResult {
  let documents = 0
  let inDocument = false
  let tokens = 0
  let flowDepth = 0
  let lineDepth = 0
  let atLineStart = true
  let scalarNext = false
  let doubleQuoted = 0
  const over = (problem: string): PrescanResult => ({problem, doubleQuoted})
  for (const tok of new Lexer().lex(text)) {
    if (scalarNext) {
      // A scalar's source may start with spaces or '#': it is content, whatever it looks like.
      scalarNext = false
      atLineStart = false
      if (!inDocument) {
        inDocument = true
        documents++
      }
    } else if (tok === SCALAR_MARKER) {
      scalarNext = true
      continue
    } else if (tok === '\n' || tok === '\r\n' || tok === '') {
      atLineStart = true
      lineDepth = 0
      continue
    } else if (tok === DOCUMENT_MODE || tok === '\uFEFF') {
      continue
    } else if (tok[0] === ' ' || tok[0] === '\t') {
      if (atLineStart) lineDepth += tok.length
      continue
    } else if (tok[0] === '#') {
      continue
    } else {
      if (tok[0] === '"' && (doubleQuoted += tok.length) > MAX_DOUBLE_QUOTED) {
        return over(`has more than ${MAX_DOUBLE_QUOTED / 1024 / 1024} MiB of double-quoted strings; write large text as a block scalar (|) or in single quotes`)
      }
      atLineStart = false
      if (tok === '---') {
        documents++
        inDocument = true
      } else if (tok === '...') {
        inDocument = false
      } else if (!inDocument) {
        inDocument = true
        documents++
      }
      if (tok === '[' || tok === '{') {
        if (++flowDepth > MAX_FLOW_DEPTH) return over(`nests [ and { deeper than ${MAX_FLOW_DEPTH} levels`)
      } else if (tok === ']' || tok === '}') {
        if (flowDepth > 0) flowDepth--
      } else if ((tok === '-' || tok === '?' || tok === ':') && flowDepth === 0) {
        // Block indicators only: inside [ ] or { } (minified JSON on one line) they nest nothing.
        if (++lineDepth > MAX_BLOCK_DEPTH) return over(`nests YAML blocks deeper than ${MAX_BLOCK_DEPTH} levels`)
      }
    }
    if (documents > MAX_DOCUMENTS) return over(`has more than ${MAX_DOCUMENTS} YAML documents; at most ${MAX_DOCUMENTS} are allowed in one location`)
    if (++tokens > MAX_TOKENS) return over(`has more than ${MAX_TOKENS} YAML tokens (keys, values, list items); no manifest needs that many`)
  }
  return {doubleQuoted}
}
