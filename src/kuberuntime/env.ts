// A container's environment and `$(VAR)` expansion, with the kubelet's semantics
// (third_party/forked/golang/expansion, kubelet_pods.go makeEnvironmentVariables and
// pkg/api/v1/resource helpers.go for resourceFieldRef). Pure: ConfigMaps, Secrets, env files, IPs
// and the node's capacity come in through EnvContext.
import type {ConfigMap, Container, EnvVar, ObjectStore, Pod, Secret} from '../api/types.js'
import type {KeyValue} from '../cri/api.js'
import {lookupEnvFileKey, NO_ENV_FILES, type EnvFileStore} from './env-file.js'
import {quantityMilliValue, quantityValue} from '../util/quantity.js'
import {ConfigError} from './errors.js'
import {ownValue} from '../util/own.js'

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

export interface NodeCapacity {
  /** The node's CPUs in milli-CPU (the limit a container without a CPU limit can use). */
  cpuMilli: number
  /** The node's memory in bytes. */
  memoryBytes: number
}

export interface EnvContext {
  /** The pod's IP, for fieldRef status.podIP; empty when not known. */
  podIP: string
  /** The node's IP, for fieldRef status.hostIP (and status.podIP of host-network pods). */
  hostIP?: string | undefined
  /** ConfigMaps and Secrets for envFrom, configMapKeyRef and secretKeyRef. */
  objects?: ObjectStore | undefined
  /** The node's allocatable resources: resourceFieldRef limits of a container without limits. */
  nodeCapacity?: NodeCapacity | undefined
  /** The env files fileKeyRef names, read from the pod's emptyDir volumes; default none. */
  envFiles?: EnvFileStore | undefined
}

// `metadata.labels['key']` and `metadata.annotations['key']` (single or double quotes).
const MAP_FIELD = /^metadata\.(labels|annotations)\[(['"])(.*)\2\]$/

/** The value of a downward-API fieldRef, or undefined for fields not supported. */
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
    case 'status.hostIP':
    case 'status.hostIPs':
      return ctx.hostIP ?? ''
    case 'status.podIP':
    case 'status.podIPs':
      // A host-network pod has the node's IP, as the kubelet reports it.
      return ctx.podIP || (pod.spec?.hostNetwork === true ? (ctx.hostIP ?? '') : '')
  }
  const m = MAP_FIELD.exec(fieldPath)
  if (m) {
    const map = m[1] === 'labels' ? meta?.labels : meta?.annotations
    return ownValue(map, m[3] ?? '') ?? ''
  }
  return undefined
}

/**
 * The value of a resourceFieldRef for `container`, as the kubelet computes it: CPU rounded up
 * to whole divisors of milli-CPU, memory and ephemeral storage rounded up to whole divisors of
 * bytes. A missing limit is the node's capacity; a missing request is the limit (the API
 * server's defaulting) or 0.
 */
export function resourceFieldValue(container: Container, resource: string, divisor: string | number | undefined, ctx: EnvContext): string {
  const [kind, name = ''] = resource.split('.', 2) as [string, string | undefined]
  if ((kind !== 'limits' && kind !== 'requests') || !['cpu', 'memory', 'ephemeral-storage'].includes(name)) {
    throw new ConfigError(`resourceFieldRef: unsupported resource "${resource}"`)
  }
  const limits = container.resources?.limits ?? {}
  const requests = container.resources?.requests ?? {}
  let q: string | number | undefined = kind === 'limits' ? ownValue(limits, name) : (ownValue(requests, name) ?? ownValue(limits, name))
  if (q === undefined && kind === 'limits') {
    const cap = ctx.nodeCapacity
    if (!cap || name === 'ephemeral-storage') {
      throw new ConfigError(`resourceFieldRef ${resource}: container ${container.name} has no such limit and the node's capacity is not known`)
    }
    q = name === 'cpu' ? `${cap.cpuMilli}m` : cap.memoryBytes
  }
  q ??= 0
  const div = divisor === undefined || divisor === '' ? 1 : divisor
  if (name === 'cpu') {
    const d = quantityMilliValue(div)
    return String(Math.ceil(quantityMilliValue(q) / (d > 0 ? d : 1000)))
  }
  const d = quantityValue(div)
  return String(Math.ceil(quantityValue(q) / (d > 0 ? d : 1)))
}

/** A Secret's values as bytes: base64 `data`, overridden by plain `stringData` as the API server merges them. */
export function secretData(secret: Secret): Map<string, Buffer> {
  const out = new Map<string, Buffer>()
  for (const [k, v] of Object.entries(secret.data ?? {})) out.set(k, Buffer.from(v, 'base64'))
  for (const [k, v] of Object.entries(secret.stringData ?? {})) out.set(k, Buffer.from(v, 'utf8'))
  return out
}

/** A ConfigMap's values as bytes: `data` and base64 `binaryData`. */
export function configMapData(cm: ConfigMap): Map<string, Buffer> {
  const out = new Map<string, Buffer>()
  for (const [k, v] of Object.entries(cm.data ?? {})) out.set(k, Buffer.from(v, 'utf8'))
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) out.set(k, Buffer.from(v, 'base64'))
  return out
}

/** No ConfigMaps or Secrets: every reference to one is missing. */
export const NO_OBJECTS: ObjectStore = {configMap: () => undefined, secret: () => undefined}

// The kubelet's check for envFrom keys (validation.IsEnvVarName): keys that fail it are skipped.
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/

export function isEnvVarName(name: string): boolean {
  return ENV_VAR_NAME.test(name) && name !== '.' && name !== '..' && !name.startsWith('..')
}

function notFound(kind: 'configmap' | 'secret', name: string): ConfigError {
  return new ConfigError(`${kind} "${name}" not found`)
}

/** The variables of one envFrom entry (sorted by key), or [] for a missing optional source. */
function envFromVars(pod: Pod, from: NonNullable<Container['envFrom']>[number], objects: ObjectStore): [string, string][] {
  const namespace = pod.metadata?.namespace ?? 'default'
  let entries: [string, string][]
  if (from.configMapRef) {
    const cm = objects.configMap(namespace, from.configMapRef.name ?? '')
    if (!cm) {
      if (from.configMapRef.optional === true) return []
      throw notFound('configmap', from.configMapRef.name ?? '')
    }
    // Like the kubelet, only `data`: binaryData never becomes an environment variable.
    entries = Object.entries(cm.data ?? {})
  } else if (from.secretRef) {
    const secret = objects.secret(namespace, from.secretRef.name ?? '')
    if (!secret) {
      if (from.secretRef.optional === true) return []
      throw notFound('secret', from.secretRef.name ?? '')
    }
    entries = [...secretData(secret)].map(([k, v]) => [k, v.toString('utf8')])
  } else {
    return []
  }
  const prefix = from.prefix ?? ''
  return entries
    .map(([k, v]): [string, string] => [prefix + k, v])
    .filter(([k]) => isEnvVarName(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

type FileKeySelector = NonNullable<NonNullable<EnvVar['valueFrom']>['fileKeyRef']>

/** The value of one `valueFrom`, or undefined when an optional reference is missing. */
function valueFrom(pod: Pod, container: Container, e: EnvVar, ctx: EnvContext, objects: ObjectStore): string | undefined {
  const from = e.valueFrom
  const namespace = pod.metadata?.namespace ?? 'default'
  if (from?.fieldRef) {
    const v = fieldRefValue(pod, from.fieldRef.fieldPath, ctx)
    if (v === undefined) throw new ConfigError(`env ${e.name}: unsupported fieldRef "${from.fieldRef.fieldPath}"`)
    return v
  }
  if (from?.resourceFieldRef) {
    const ref = from.resourceFieldRef
    const target = ref.containerName ? findContainer(pod, ref.containerName) : container
    if (!target) throw new ConfigError(`env ${e.name}: resourceFieldRef names unknown container "${ref.containerName ?? ''}"`)
    return resourceFieldValue(target, ref.resource, ref.divisor, ctx)
  }
  if (from?.configMapKeyRef) {
    const {name = '', key, optional} = from.configMapKeyRef
    const cm = objects.configMap(namespace, name)
    if (!cm) {
      if (optional === true) return undefined
      throw notFound('configmap', name)
    }
    const v = ownValue(cm.data, key)
    if (v === undefined) {
      if (optional === true) return undefined
      throw new ConfigError(`couldn't find key ${key} in ConfigMap ${namespace}/${name}`)
    }
    return v
  }
  if (from?.secretKeyRef) {
    const {name = '', key, optional} = from.secretKeyRef
    const secret = objects.secret(namespace, name)
    if (!secret) {
      if (optional === true) return undefined
      throw notFound('secret', name)
    }
    const v = secretData(secret).get(key)
    if (v === undefined) {
      if (optional === true) return undefined
      throw new ConfigError(`couldn't find key ${key} in Secret ${namespace}/${name}`)
    }
    return v.toString('utf8')
  }
  if (from?.fileKeyRef) return fileKeyValue(from.fileKeyRef, ctx.envFiles ?? NO_ENV_FILES)
  // Validation admits no other source; one from a newer API would be left out, never guessed at.
  return undefined
}

/**
 * A fileKeyRef's value. `optional` covers a missing file and a missing key, as the API documents
 * it (the kubelet's code also fails an optional reference whose file is missing; a file an
 * init container did not write is what optional is for), and `KEY=` sets the variable to ''
 * (the kubelet's code takes an empty value for a missing key). A file that cannot be parsed fails
 * the container even when optional, as in the kubelet. Messages never quote the file's content.
 */
function fileKeyValue(ref: FileKeySelector, files: EnvFileStore): string | undefined {
  const {volumeName, path, key, optional} = ref
  const text = files.text(volumeName, path)
  if (text === undefined) {
    if (optional === true) return undefined
    throw new ConfigError(`couldn't find env file ${JSON.stringify(path)} in volume ${JSON.stringify(volumeName)}`)
  }
  const found = lookupEnvFileKey(text, key)
  if ('error' in found) throw new ConfigError(`couldn't parse env file ${JSON.stringify(path)} in volume ${JSON.stringify(volumeName)}: ${found.error}`)
  if (!found.found) {
    if (optional === true) return undefined
    throw new ConfigError(`couldn't find key ${key} in env file ${JSON.stringify(path)} in volume ${JSON.stringify(volumeName)}`)
  }
  return found.value
}

function findContainer(pod: Pod, name: string): Container | undefined {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find((c) => c.name === name)
}

/**
 * The container's environment: envFrom sources first (each sorted by key; keys that are not
 * valid variable names are skipped, as the kubelet does), then `env` in spec order. A `value`
 * may refer to envFrom variables and to variables defined earlier in `env` with `$(VAR)`. A
 * name given twice keeps its first place and its last value (the kubelet collects them in a
 * map). A missing ConfigMap, Secret, env file or key throws ConfigError unless the reference is
 * optional, in which case the variable is left out.
 */
export function buildEnv(pod: Pod, container: Container, ctx: EnvContext): KeyValue[] {
  const objects = ctx.objects ?? NO_OBJECTS
  const vars = new Map<string, string>()
  for (const from of container.envFrom ?? []) {
    for (const [k, v] of envFromVars(pod, from, objects)) vars.set(k, v)
  }
  for (const e of container.env ?? []) {
    let value: string | undefined
    if (e.value !== undefined && e.value !== '') {
      value = expand(e.value, (name) => vars.get(name))
    } else if (e.valueFrom) {
      value = valueFrom(pod, container, e, ctx, objects)
    } else {
      value = ''
    }
    if (value !== undefined) vars.set(e.name, value)
  }
  return [...vars].map(([key, value]) => ({key, value}))
}
