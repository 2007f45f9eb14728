// `--manifest-url-header Key:Value` (repeatable). Header values are often credentials, so no
// message here ever repeats a value, and a malformed flag is not echoed at all.
import {InvalidInputError} from '../util/errors.js'

// RFC 9110 token characters: what a header name may consist of.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

export function parseHeaderFlag(flag: string): {key: string; value: string} {
  const colon = flag.indexOf(':')
  if (colon < 0) throw new InvalidInputError("--manifest-url-header must be written as Key:Value (no ':' found)")
  const key = flag.slice(0, colon).trim()
  // Optional whitespace around a field value is not part of it (RFC 9110 §5.5).
  const value = flag.slice(colon + 1).trim()
  if (key === '') throw new InvalidInputError('--manifest-url-header must be written as Key:Value (the key is empty)')
  const problem = headerProblem(key, value)
  if (problem) throw new InvalidInputError(`--manifest-url-header: ${problem}`)
  return {key, value}
}

/** Why a header cannot be sent (named by its key only: values are credentials), or undefined. */
export function headerProblem(key: string, value: string): string | undefined {
  if (!TOKEN.test(key)) return `${JSON.stringify(key.slice(0, 100))} is not a valid HTTP header name`
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) return `header ${key}: the value contains a line break or control character`
  if (value.length > MAX_HEADER_VALUE) return `header ${key}: the value is longer than ${MAX_HEADER_VALUE} characters`
  return undefined
}

/** Longer than any token; keeps a header from exceeding what servers accept. */
export const MAX_HEADER_VALUE = 8192

/** Every flag, grouped by header name (case-insensitive, first spelling kept), values in order. */
export function parseHeaderFlags(flags: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  const spelling = new Map<string, string>()
  for (const flag of flags) {
    const {key, value} = parseHeaderFlag(flag)
    const name = spelling.get(key.toLowerCase()) ?? key
    spelling.set(key.toLowerCase(), name)
    out[name] = [...(Object.hasOwn(out, name) ? out[name]! : []), value]
  }
  return out
}

/** Headers of two origins together, values of the same name (case-insensitive) in order. */
export function mergeHeaders(a: Readonly<Record<string, string[]>>, b: Readonly<Record<string, string[]>>): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  const spelling = new Map<string, string>()
  for (const [key, values] of [...Object.entries(a), ...Object.entries(b)]) {
    const name = spelling.get(key.toLowerCase()) ?? key
    spelling.set(key.toLowerCase(), name)
    out[name] = [...(Object.hasOwn(out, name) ? out[name]! : []), ...values]
  }
  return out
}
