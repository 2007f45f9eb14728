// Keeps stored records small whatever a runtime or a container said: every string is cut to a
// bound (messages, termination messages, error texts).

/** A copy of `value` in which no string is longer than `max` characters. */
export function boundStrings<T>(value: T, max: number): T {
  if (typeof value === 'string') return (value.length > max ? `${value.slice(0, max)}…` : value) as T
  if (Array.isArray(value)) return value.map((v: unknown) => boundStrings(v, max)) as T
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = boundStrings(v, max)
    return out as T
  }
  return value
}
