// Field paths of issues: `spec.containers[0].image`, `metadata.labels["app.kubernetes.io/name"]`.

/** Joins field-path segments: `join('spec', 'containers[0]')` → `spec.containers[0]`. */
export function joinPath(base: string, segment: string): string {
  if (base === '') return segment
  if (segment === '' || segment.startsWith('[')) return base + segment
  return `${base}.${segment}`
}

/** A map key as a path segment: `.app` when it is a plain word, else `["app.kubernetes.io/name"]`. */
export function keySegment(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : `[${JSON.stringify(key)}]`
}
