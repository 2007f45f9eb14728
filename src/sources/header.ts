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
  if (!TOKEN.test(key)) throw new InvalidInputError(`--manifest-url-header: ${JSON.stringify(key)} is not a valid HTTP header name`)
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) {
    throw new InvalidInputError(`--manifest-url-header ${key}: the value contains a line break or control character`)
  }
  return {key, value}
}

/** Every flag, grouped by header name (case-insensitive, first spelling kept), values in order. */
export function parseHeaderFlags(flags: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  const spelling = new Map<string, string>()
  for (const flag of flags) {
    const {key, value} = parseHeaderFlag(flag)
    const name = spelling.get(key.toLowerCase()) ?? key
    spelling.set(key.toLowerCase(), name)
    ;(out[name] ??= []).push(value)
  }
  return out
}
