// A container's environment and `$(VAR)` expansion, with the kubelet's semantics
// (third_party/forked/golang/expansion and kubelet_pods.go makeEnvironmentVariables).
import type {Container, Pod} from '../api/types.js'
import type {KeyValue} from '../cri/api.js'

/**
 * Replaces `$(NAME)` with lookup(NAME) when it is defined; an undefined reference stays as
 * written. `$$` is an escaped `$`. A `$` before anything else, or an unclosed `$(`, stays literal.
 */
export function expand(input: string, lookup: (name: string) => string | undefined): string {
  let out = ''
  let i = 0
  while (i < input.length) {
    const ch = input[i]
    if (ch !== '$' || i + 1 >= input.length) {
      out += ch
      i++
      continue
    }
    const next = input[i + 1]
    if (next === '$') {
      out += '$'
      i += 2
    } else if (next === '(') {
      const close = input.indexOf(')', i + 2)
      if (close === -1) {
        out += '$('
        i += 2
      } else {
        const name = input.slice(i + 2, close)
        out += lookup(name) ?? `$(${name})`
        i = close + 1
      }
    } else {
      out += `$${next}`
      i += 2
    }
  }
  return out
}

/** Expands every string against a fixed set of variables (used for command and args). */
export function expandAll(values: readonly string[] | undefined, vars: ReadonlyMap<string, string>): string[] {
  return (values ?? []).map((v) => expand(v, (name) => vars.get(name)))
}

export interface EnvContext {
  /** The pod's IP, for fieldRef status.podIP; empty when not known (host network). */
  podIP: string
}

// `metadata.labels['key']` and `metadata.annotations['key']` (single or double quotes).
const MAP_FIELD = /^metadata\.(labels|annotations)\[(['"])(.*)\2\]$/

/** The value of a downward-API fieldRef, or undefined for fields not supported yet. */
export function fieldRefValue(pod: Pod, fieldPath: string, ctx: EnvContext): string | undefined {
  const meta = pod.metadata
  switch (fieldPath) {
    case 'metadata.name':
      return meta?.name ?? ''
    case 'metadata.namespace':
      return meta?.namespace ?? ''
    case 'metadata.uid':
      return meta?.uid ?? ''
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? ''
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? ''
    case 'status.podIP':
    case 'status.podIPs':
      return ctx.podIP
  }
  const m = MAP_FIELD.exec(fieldPath)
  if (m) {
    const map = m[1] === 'labels' ? meta?.labels : meta?.annotations
    return map?.[m[3] ?? ''] ?? ''
  }
  return undefined
}

/**
 * The container's environment in spec order. A value may refer to variables defined earlier
 * in the list with `$(VAR)`. A name given twice keeps its first place and its last value (the
 * kubelet collects them in a map). configMapKeyRef, secretKeyRef, resourceFieldRef and envFrom
 * are not handled yet: such variables are left out.
 */
export function buildEnv(pod: Pod, container: Container, ctx: EnvContext): KeyValue[] {
  const vars = new Map<string, string>()
  for (const e of container.env ?? []) {
    let value: string | undefined
    if (e.value !== undefined && e.value !== '') {
      value = expand(e.value, (name) => vars.get(name))
    } else if (e.valueFrom?.fieldRef) {
      value = fieldRefValue(pod, e.valueFrom.fieldRef.fieldPath, ctx)
    } else if (e.valueFrom) {
      value = undefined
    } else {
      value = ''
    }
    if (value !== undefined) vars.set(e.name, value)
  }
  return [...vars].map(([key, value]) => ({key, value}))
}
