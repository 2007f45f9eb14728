// The lexical pieces of apimachinery's label and field selectors (labels/selector.go), shared by
// the read-only API (which answers a bad selector with HTTP 400) and kube-node's own commands
// (exit 2): what a label key and value may be, and the split into terms. Pure.

/** A qualified name with an optional DNS-subdomain prefix (at most 316 characters in all). */
export const LABEL_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/
/** A label value (may be empty; at most 63 characters). */
export const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/

export const isLabelKey = (key: string): boolean => key.length <= 316 && LABEL_KEY.test(key)
export const isLabelValue = (value: string): boolean => value.length <= 63 && LABEL_VALUE.test(value)

/** Splits on commas outside parentheses; each term trimmed, empty terms kept (callers decide). */
export function selectorTerms(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '(') depth++
    else if (ch === ')') depth--
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i))
      start = i + 1
    }
  }
  parts.push(text.slice(start))
  return parts.map((p) => p.trim())
}
