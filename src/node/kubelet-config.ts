// `--config`: the KubeletConfiguration fields kube-node honours (kubelet.config.k8s.io/v1beta1).
// Unknown fields are warnings (a kubelet config file has many kube-node does not need); a
// known field with a bad value is an error naming the file and the field.
import {decodeYamlValue} from '../manifest/decode.js'
import {InvalidInputError, TooLargeError, type FieldIssue} from '../util/errors.js'
import {parseDuration} from '../util/duration.js'
import {quantityValue} from '../util/quantity.js'
import {ownValue} from '../util/own.js'
import {readBounded} from '../host/read-bounded.js'
import {headerProblem} from '../sources/header.js'
import {VALIDATION_MODES, type ValidationMode} from '../manifest/unknown-fields.js'

export interface KubeletConfigValues {
  staticPodPath?: string
  staticPodURL?: string
  staticPodURLHeader?: Record<string, string[]>
  syncFrequencyMs?: number
  fileCheckFrequencyMs?: number
  httpCheckFrequencyMs?: number
  containerRuntimeEndpoint?: string
  imageServiceEndpoint?: string
  runtimeRequestTimeoutMs?: number
  address?: string
  readOnlyPort?: number
  healthzPort?: number
  healthzBindAddress?: string
  clusterDNS?: string[]
  clusterDomain?: string
  resolvConf?: string
  maxPods?: number
  serializeImagePulls?: boolean
  seccompDefault?: boolean
  /** crashLoopBackOff.maxContainerRestartPeriod: the crash-loop back-off's ceiling. */
  maxContainerRestartPeriodMs?: number
  containerLogMaxSizeBytes?: number
  containerLogMaxFiles?: number
  podLogsDir?: string
  /** kube-node's own: what unknown manifest fields are (`--validate`). */
  staticPodValidation?: ValidationMode
}

/** A field's value, or what is wrong with it (`field`: the part of it, for nested fields). */
type Reader = (v: unknown) => {value: unknown} | {error: string; field?: string}

const str: Reader = (v) => (typeof v === 'string' ? {value: v} : {error: 'must be a string'})
const bool: Reader = (v) => (typeof v === 'boolean' ? {value: v} : {error: 'must be true or false'})
const port: Reader = (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 65535 ? {value: v} : {error: 'must be a port number between 0 and 65535'})
const positiveInt: Reader = (v) => (Number.isInteger(v) && (v as number) > 0 ? {value: v} : {error: 'must be a positive whole number'})
const duration: Reader = (v) => {
  // A metav1.Duration as the kubelet reads it: a bare number has no unit and is refused.
  if (typeof v === 'number' || (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v))) return {error: `must be a duration with a unit, such as 20s or 1m (got ${JSON.stringify(v)})`}
  const ms = typeof v === 'string' ? parseDuration(v) : undefined
  return ms !== undefined && ms > 0 ? {value: ms} : {error: 'must be a duration such as 20s or 1m'}
}
/** crashLoopBackOff.maxContainerRestartPeriod: the back-off's ceiling, 1s to 300s as the kubelet allows. */
const crashLoopBackOff: Reader = (v) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {error: 'must be an object with maxContainerRestartPeriod'}
  const raw = (v as Record<string, unknown>)['maxContainerRestartPeriod']
  if (raw === undefined) return {value: undefined}
  const r = duration(raw)
  if ('error' in r) return {error: r.error, field: 'maxContainerRestartPeriod'}
  const ms = r.value as number
  return ms >= 1000 && ms <= 300_000 ? {value: ms} : {error: 'must be between 1s and 300s', field: 'maxContainerRestartPeriod'}
}
const oneOf = (options: readonly string[]): Reader => (v) => (typeof v === 'string' && options.includes(v) ? {value: v} : {error: `must be one of ${options.join(', ')}`})
const stringList: Reader = (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? {value: v} : {error: 'must be a list of strings'})
const quantity: Reader = (v) => {
  try {
    return {value: quantityValue(String(v))}
  } catch {
    return {error: 'must be a quantity such as 10Mi'}
  }
}
const headerMap: Reader = (v) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return {error: 'must be a map of header name to a list of values'}
  for (const [name, values] of Object.entries(v)) {
    if (!Array.isArray(values) || !values.every((x) => typeof x === 'string')) return {error: 'must be a map of header name to a list of values'}
    // Header values are credentials: a problem is named by the header, never by its value.
    for (const value of values) {
      const problem = headerProblem(name, value)
      if (problem) return {error: problem}
    }
  }
  return {value: v}
}

/** File field → [reader, our name]. */
const FIELDS: Record<string, [Reader, keyof KubeletConfigValues]> = {
  staticPodPath: [str, 'staticPodPath'],
  staticPodURL: [str, 'staticPodURL'],
  staticPodURLHeader: [headerMap, 'staticPodURLHeader'],
  syncFrequency: [duration, 'syncFrequencyMs'],
  fileCheckFrequency: [duration, 'fileCheckFrequencyMs'],
  httpCheckFrequency: [duration, 'httpCheckFrequencyMs'],
  containerRuntimeEndpoint: [str, 'containerRuntimeEndpoint'],
  imageServiceEndpoint: [str, 'imageServiceEndpoint'],
  runtimeRequestTimeout: [duration, 'runtimeRequestTimeoutMs'],
  address: [str, 'address'],
  readOnlyPort: [port, 'readOnlyPort'],
  healthzPort: [port, 'healthzPort'],
  healthzBindAddress: [str, 'healthzBindAddress'],
  clusterDNS: [stringList, 'clusterDNS'],
  clusterDomain: [str, 'clusterDomain'],
  resolvConf: [str, 'resolvConf'],
  maxPods: [positiveInt, 'maxPods'],
  serializeImagePulls: [bool, 'serializeImagePulls'],
  seccompDefault: [bool, 'seccompDefault'],
  crashLoopBackOff: [crashLoopBackOff, 'maxContainerRestartPeriodMs'],
  containerLogMaxSize: [quantity, 'containerLogMaxSizeBytes'],
  containerLogMaxFiles: [positiveInt, 'containerLogMaxFiles'],
  podLogsDir: [str, 'podLogsDir'],
  staticPodValidation: [oneOf(VALIDATION_MODES), 'staticPodValidation'],
}

const IGNORED = new Set(['apiVersion', 'kind'])
export const KUBELET_CONFIG_API_VERSION = 'kubelet.config.k8s.io/v1beta1'

export interface ParsedKubeletConfig {
  values: KubeletConfigValues
  /** Fields kube-node does not use, by name. */
  unknown: string[]
}

/** Pure: text of a KubeletConfiguration file → values, or an InvalidInputError naming every bad field. */
export function parseKubeletConfig(text: string, location: string): ParsedKubeletConfig {
  const issue = (field: string, message: string): FieldIssue => ({location, document: 0, field, message})
  // Read as the kubelet reads it (sigs.k8s.io/yaml): the YAML 1.1 rules manifests are read with.
  const decoded = decodeYamlValue(text)
  if ('problem' in decoded) throw new InvalidInputError([issue('', decoded.problem)])
  const doc = decoded.value
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new InvalidInputError([issue('', 'must be a KubeletConfiguration object')])
  const obj = doc as Record<string, unknown>
  const issues: FieldIssue[] = []
  if (obj['kind'] !== 'KubeletConfiguration') issues.push(issue('kind', `must be KubeletConfiguration, got ${JSON.stringify(obj['kind'])}`))
  if (obj['apiVersion'] !== KUBELET_CONFIG_API_VERSION) issues.push(issue('apiVersion', `must be ${KUBELET_CONFIG_API_VERSION}, got ${JSON.stringify(obj['apiVersion'])}`))
  const values: Record<string, unknown> = {}
  const unknown: string[] = []
  for (const [field, raw] of Object.entries(obj)) {
    if (IGNORED.has(field)) continue
    const spec = ownValue(FIELDS, field)
    if (!spec) {
      unknown.push(field)
      continue
    }
    const r = spec[0](raw)
    if ('error' in r) issues.push(issue(r.field ? `${field}.${r.field}` : field, r.error))
    else if (r.value !== undefined) values[spec[1]] = r.value
  }
  if (issues.length > 0) throw new InvalidInputError(issues)
  return {values: values as KubeletConfigValues, unknown}
}

/** Far more than any KubeletConfiguration; `--config /dev/zero` must not fill the memory. */
export const MAX_CONFIG_BYTES = 1024 * 1024

export async function loadKubeletConfig(path: string): Promise<ParsedKubeletConfig> {
  const fail = (message: string): InvalidInputError => new InvalidInputError([{location: path, document: 0, field: '', message}])
  let text: string
  try {
    text = await readBounded(path, MAX_CONFIG_BYTES)
  } catch (err) {
    if (err instanceof TooLargeError) throw fail(`is larger than the ${MAX_CONFIG_BYTES / 1024} KiB limit for a configuration file`)
    throw fail(`cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)
  }
  return parseKubeletConfig(text, path)
}
