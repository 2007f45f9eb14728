// A valid base pod and a path setter, for table tests that change one field per row.

export function basePod(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name: 'web', labels: {app: 'web'}},
    spec: {
      containers: [
        {
          name: 'nginx',
          image: 'nginx:1.27',
          ports: [{name: 'http', containerPort: 80}],
          volumeMounts: [{name: 'data', mountPath: '/data'}],
        },
        {name: 'sidecar', image: 'busybox:1.36', command: ['sleep', 'infinity']},
      ],
      volumes: [{name: 'data', emptyDir: {}}],
    },
  }
}

/**
 * A copy of `obj` with the value at a dotted path replaced (`spec.containers.0.image`);
 * `undefined` deletes it. Missing intermediate objects are created.
 */
export function withPath(obj: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(obj)
  const keys = path.split('.')
  let cur: Record<string, unknown> | unknown[] = copy
  for (const key of keys.slice(0, -1)) {
    const next: unknown = Array.isArray(cur) ? cur[Number(key)] : cur[key]
    if (next !== null && typeof next === 'object') {
      cur = next as Record<string, unknown>
    } else {
      const fresh: Record<string, unknown> = {}
      if (Array.isArray(cur)) cur[Number(key)] = fresh
      else cur[key] = fresh
      cur = fresh
    }
  }
  const last = keys[keys.length - 1]!
  if (Array.isArray(cur)) cur[Number(last)] = value
  else if (value === undefined) delete cur[last]
  else cur[last] = value
  return copy
}

export function podWith(path: string, value: unknown): Record<string, unknown> {
  return withPath(basePod(), path, value)
}
