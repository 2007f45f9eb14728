// Stable hashes of canonical JSON. Pure: the same value always gives the same hash, whatever
// the order of object keys.
import {createHash} from 'node:crypto'

/** JSON with object keys sorted at every level and `undefined` members dropped. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key]
      if (v !== undefined) out[key] = sortKeys(v)
    }
    return out
  }
  return value
}

/** Lowercase hex SHA-256 of the canonical JSON of `value`, cut to `hexChars` characters. */
export function hashOf(value: unknown, hexChars = 16): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, hexChars)
}

/**
 * A static pod's UID: 32 hex characters derived from node, namespace and name only, so that the
 * pod keeps its identity across edits, file renames and kube-node restarts.
 */
export function staticPodUid(nodeName: string, namespace: string, name: string): string {
  return hashOf({node: nodeName.toLowerCase(), namespace, name}, 32)
}
