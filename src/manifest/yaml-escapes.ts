// The escapes of double-quoted strings as go-yaml (and so kubectl and the kubelet) reads them.
// Two differ from the YAML 1.2 parser: go-yaml accepts `\'`, an apostrophe ("it\'s" is "it's";
// Kubernetes' own documentation has examples written that way), and refuses `\/`, which only
// YAML 1.2 and JSON know (a JSON file is read as JSON by the kubelet, so it keeps `\/`). The
// work is done on the parser's tokens, not on the text, so only the inside of double-quoted
// scalars changes: single-quoted and plain scalars, block scalars and comments keep their
// backslashes. Every other escape is left to the parser, which refuses the ones go-yaml refuses
// (`\q`). Pure, linear.
import type {CST} from 'yaml'

/**
 * Rewrites `\'` to `'` in every double-quoted scalar of one top-level parser token, in place,
 * and adds to `slashes` the offsets of the `\/` escapes it saw (the first of each scalar, in no
 * particular order).
 */
export function rewriteEscapes(token: CST.Token, slashes: number[]): void {
  const stack: Array<CST.Token | null | undefined> = [token]
  while (stack.length > 0) {
    const t = stack.pop()
    if (t === null || t === undefined) continue
    if (t.type === 'document') {
      stack.push(t.value)
    } else if (t.type === 'double-quoted-scalar') {
      const scanned = scanEscapes(t.source)
      t.source = scanned.source
      if (scanned.slash !== undefined) slashes.push(t.offset + scanned.slash)
    } else if (t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection') {
      for (const item of t.items) stack.push(item.key, item.value)
    }
  }
}

/**
 * The source of a double-quoted scalar (quotes included) with each `\'` turned into `'`, and
 * where its first `\/` is. Escapes are read left to right in pairs, so `\\'` (an escaped
 * backslash, then a quote) is left alone.
 */
export function scanEscapes(source: string): {source: string; slash: number | undefined} {
  if (!source.includes("\\'") && !source.includes('\\/')) return {source, slash: undefined}
  let out = ''
  let from = 0
  let slash: number | undefined
  for (let i = 0; i < source.length; i++) {
    if (source[i] !== '\\') continue
    const next = source[i + 1]
    if (next === "'") {
      out += source.slice(from, i)
      from = i + 1
    } else if (next === '/' && slash === undefined) {
      slash = i
    }
    i++
  }
  return {source: out + source.slice(from), slash}
}
