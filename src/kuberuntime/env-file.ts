// `env[].valueFrom.fileKeyRef`: a variable whose value is a key of an env file (KEY=VALUE lines)
// in one of the pod's emptyDir volumes, typically written by an init container (KEP-3721,
// Kubernetes 1.34+). The parser follows the kubelet's (pkg/kubelet/util/env ParseEnv) line by
// line: leading blanks and tabs are dropped; blank lines and lines starting with '#' are skipped;
// `NAME=VALUE` with whitespace around the name and the value trimmed; quotes are kept as written
// (no unquoting, no escapes, no `$` expansion); a trailing '\' joins the next line with one
// space, and a blank line, a comment or the end of the file inside such a continuation is an
// error; CRLF line ends are read as LF. Like the kubelet, the first line that names the key
// wins and the lines after it are not looked at; any malformed line before it is an error.
// Pure: the file's text comes in through EnvFileStore, read safely by the apply step.
import type {EnvVar} from '../api/types.js'

/** The largest env file read (KEP-3721's limit); a larger one fails the container. */
export const ENV_FILE_MAX_BYTES = 64 * 1024

/** The longest key a fileKeyRef may name (the API's limit). */
export const ENV_FILE_KEY_MAX = 128

/** The env files a container's fileKeyRefs name: their text, or undefined when a file does not exist. */
export interface EnvFileStore {
  text(volumeName: string, path: string): string | undefined
}

/** No env files read: every fileKeyRef's file is missing. */
export const NO_ENV_FILES: EnvFileStore = {text: () => undefined}

export type EnvFileLookup = {found: true; value: string} | {found: false} | {error: string}

// Go's unicode.IsSpace, which strings.TrimSpace uses: differs from JS's trim() (no U+FEFF, but U+0085).
const GO_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const TRIM_SPACE = new RegExp(`^[${GO_SPACE}]+|[${GO_SPACE}]+$`, 'g')
const goTrimSpace = (s: string): string => s.replace(TRIM_SPACE, '')
const trimLeftBlanks = (s: string): string => s.replace(/^[ \t]+/, '')
const trimRightBlanks = (s: string): string => s.replace(/[ \t]+$/, '')

/** Lines as Go's bufio.ScanLines yields them: split at LF, one trailing CR dropped, no empty last line. */
function scanLines(text: string): string[] {
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
}

/** The value of `key` in an env file's text, {found: false} when no line names it, or why the file cannot be read. */
export function lookupEnvFileKey(text: string, key: string): EnvFileLookup {
  const lines = scanLines(text)
  let pending = ''
  let continued = false
  for (const [i, raw] of lines.entries()) {
    const n = i + 1
    let line = trimLeftBlanks(raw)
    if (line === '') {
      if (continued) return {error: `line ${n}: blank line inside a continued line`}
      continue
    }
    if (line.startsWith('#')) {
      if (continued) return {error: `line ${n}: comment inside a continued line`}
      continue
    }
    const trimmed = trimRightBlanks(line)
    if (trimmed.endsWith('\\')) {
      const part = trimRightBlanks(trimmed.slice(0, -1))
      pending = continued ? `${pending} ${part}` : part
      continued = true
      continue
    }
    if (continued) {
      line = `${pending} ${trimmed}`
      continued = false
      pending = ''
    }
    const eq = line.indexOf('=')
    if (eq === -1) return {error: `line ${n}: not a NAME=VALUE line`}
    const name = goTrimSpace(line.slice(0, eq))
    if (name === '') return {error: `line ${n}: the name before '=' is empty`}
    if (name === key) {
      const value = goTrimSpace(line.slice(eq + 1))
      // A NUL cannot be part of a process's environment; the runtime would fail less clearly.
      if (value.includes('\0')) return {error: `line ${n}: the value contains a NUL character`}
      return {found: true, value}
    }
  }
  if (continued) return {error: 'the file ends inside a continued line'}
  return {found: false}
}

/** Why `key` cannot be a fileKeyRef key (the API's rule: printable ASCII but '=', at most 128), or undefined. */
export function envFileKeyError(key: string): string | undefined {
  if (key.length > ENV_FILE_KEY_MAX) return `must be no more than ${ENV_FILE_KEY_MAX} characters, got ${key.length}`
  if (!/^[\x20-\x7e]*$/.test(key)) return 'must consist of printable ASCII characters'
  if (key.includes('=')) return "must not contain '='"
  return undefined
}

/** Why `path` cannot name an env file inside its volume (relative, no '..'), or undefined. */
export function envFilePathError(path: string): string | undefined {
  if (path.length > 4096) return `must be no more than 4096 characters, got ${path.length}`
  if (path.includes('\0')) return 'must not contain a NUL character'
  if (path.startsWith('/')) return 'must be a relative path'
  if (path.split('/').includes('..')) return "must not contain '..'"
  if (path.startsWith('..')) return "must not start with '..'"
  if (path.split('/').every((p) => p === '' || p === '.')) return 'must name a file'
  return undefined
}

/** The (volume, path) of every fileKeyRef of a container, once each. */
export function envFileRefs(env: readonly EnvVar[] | undefined): {volumeName: string; path: string}[] {
  const seen = new Set<string>()
  const out: {volumeName: string; path: string}[] = []
  for (const e of env ?? []) {
    const ref = e.valueFrom?.fileKeyRef
    if (!ref) continue
    const id = `${ref.volumeName}\0${ref.path}`
    if (seen.has(id)) continue
    seen.add(id)
    out.push({volumeName: ref.volumeName, path: ref.path})
  }
  return out
}
