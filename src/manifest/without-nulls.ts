// Go's decoding reads `null` as "not set": a pointer, slice or map stays nil and a struct stays
// zero. Stages after validation read the object as typed, where a field is either absent or a
// value, so the nulls are dropped here once, as the kubelet never sees them. Pure.

/** A deep copy of `value` without the object keys whose value is null (list items are kept). */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    // defineProperty: a `__proto__` key stays a plain key, never the prototype.
    if (v !== null) Object.defineProperty(out, k, {value: withoutNulls(v), enumerable: true, writable: true, configurable: true})
  }
  return out
}
