// Name rules of the Kubernetes API (apimachinery validation), as predicates that return the
// reason a value is wrong, or undefined when it is valid. Pure.

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/
const IANA_SVC_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/

/** A DNS-1123 label: container, volume, port-less names and namespaces. */
export function dnsLabelError(value: string): string | undefined {
  if (value.length > 63) return `must be no more than 63 characters, got ${value.length}`
  if (!DNS_LABEL.test(value)) {
    return `"${value}" must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit`
  }
  return undefined
}

// A UID becomes a directory name (<root-dir>/pods/<uid>, log dirs): one path segment of safe
// characters. The API server's UIDs are RFC 4122 strings; any letters, digits and '-' are allowed.
const UID = /^[A-Za-z0-9][A-Za-z0-9-]*$/
export const MAX_UID_LENGTH = 128

/** A manifest's `metadata.uid`, which becomes a directory name. */
export function uidError(value: string): string | undefined {
  if (value.length > MAX_UID_LENGTH) return `must be no more than ${MAX_UID_LENGTH} characters, got ${value.length}`
  if (!UID.test(value)) return `${JSON.stringify(value)} must consist of letters, digits and '-', starting with a letter or digit (it names the pod's directory)`
  return undefined
}

/**
 * `--node-name` (or the host name): it is part of every pod's name and so of log paths. The
 * kubelet lower-cases it; it must then be a DNS-1123 subdomain.
 */
export function nodeNameError(value: string): string | undefined {
  if (value === '') return 'must not be empty'
  return dnsSubdomainError(value.toLowerCase())
}

/** A DNS-1123 subdomain: object names. */
export function dnsSubdomainError(value: string): string | undefined {
  if (value.length > 253) return `must be no more than 253 characters, got ${value.length}`
  if (!DNS_SUBDOMAIN.test(value)) {
    return `"${value}" must be a DNS-1123 subdomain: lower-case letters, digits, '-' and '.', starting and ending with a letter or digit`
  }
  return undefined
}

/** A label or annotation key: an optional DNS subdomain prefix and '/', then a name of ≤63 chars. */
export function qualifiedNameError(key: string): string | undefined {
  const parts = key.split('/')
  if (parts.length > 2) return `key "${key}" must be a name with an optional prefix and '/'`
  const name = parts[parts.length - 1]!
  if (parts.length === 2) {
    const prefix = parts[0]!
    if (prefix === '') return `key "${key}" has an empty prefix`
    const prefixError = dnsSubdomainError(prefix)
    if (prefixError) return `key "${key}" has an invalid prefix: ${prefixError}`
  }
  if (name === '') return `key "${key}" has an empty name`
  if (name.length > 63) return `key "${key}": name part must be no more than 63 characters`
  if (!QUALIFIED_NAME.test(name)) {
    return `key "${key}" must consist of letters, digits, '-', '_' or '.', starting and ending with a letter or digit`
  }
  return undefined
}

/** A label value: empty, or ≤63 chars of the qualified-name alphabet. */
export function labelValueError(value: string): string | undefined {
  if (value.length > 63) return `must be no more than 63 characters, got ${value.length}`
  if (value !== '' && !QUALIFIED_NAME.test(value)) {
    return `"${value}" must consist of letters, digits, '-', '_' or '.', starting and ending with a letter or digit`
  }
  return undefined
}

/** A port name (IANA_SVC_NAME): ≤15 chars, lower-case, at least one letter, no "--". */
export function portNameError(value: string): string | undefined {
  if (value.length > 15) return `must be no more than 15 characters, got ${value.length}`
  if (!IANA_SVC_NAME.test(value) || value.includes('--') || !/[a-z]/.test(value)) {
    return `"${value}" must be a port name: lower-case letters, digits and '-', at least one letter, no "--"`
  }
  return undefined
}

