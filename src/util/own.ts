// Lookups by a key that came from input: own properties only, so that `constructor`,
// `toString` or `__proto__` are ordinary (missing) keys and never JavaScript built-ins.

/** `obj[key]` when `key` is an own property of `obj`, else undefined. */
export function ownValue<T>(obj: Readonly<Record<string, T>> | undefined | null, key: string): T | undefined {
  if (obj === undefined || obj === null) return undefined
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined
}
