// Validation of `metadata` (name, namespace, labels, annotations). Pure.
import {getObject, getString, isObject, type Report} from '../util/check.js'
import {dnsLabelError, dnsSubdomainError, labelValueError, qualifiedNameError, uidError} from './names.js'
import {joinPath, keySegment} from '../util/field-path.js'
import {START_AFTER_ANNOTATION, START_AFTER_FIELD, startAfterSyntaxError} from './start-after.js'

export interface MetaOptions {
  /** When known, the name with its node suffix is checked too (it becomes the pod's name). */
  nodeName?: string
}

/** Validates `metadata` at field `metadata`; returns the manifest name when it is valid. */
export function validateMetadata(report: Report, value: unknown, opts: MetaOptions = {}): string | undefined {
  if (value === undefined || value === null) {
    report('metadata.name', 'must be set')
    return undefined
  }
  const meta = getObject(report, 'metadata', value)
  if (!meta) return undefined

  let validName: string | undefined
  const name = getString(report, 'metadata.name', meta['name'])
  if (meta['name'] === undefined || meta['name'] === null || name === '') {
    report('metadata.name', 'must be set')
  } else if (name !== undefined) {
    const err = dnsSubdomainError(name)
    if (err) report('metadata.name', err)
    else validName = name
  }
  if (validName !== undefined && opts.nodeName !== undefined) {
    // The pod is renamed `<name>-<node>`; that name must still be a valid object name.
    const full = `${validName}-${opts.nodeName.toLowerCase()}`
    if (full.length > 253) {
      report('metadata.name', `must be short enough that "<name>-<node>" has no more than 253 characters, got ${full.length}`)
      validName = undefined
    }
  }

  const namespace = getString(report, 'metadata.namespace', meta['namespace'])
  if (namespace !== undefined && namespace !== '') {
    const err = dnsLabelError(namespace)
    if (err) report('metadata.namespace', err)
  }
  const uid = getString(report, 'metadata.uid', meta['uid'])
  if (uid) {
    const err = uidError(uid)
    if (err) report('metadata.uid', err)
  }
  validateKeyValues(report, 'metadata.labels', meta['labels'], true)
  validateKeyValues(report, 'metadata.annotations', meta['annotations'], false)
  const startAfter = isObject(meta['annotations']) ? meta['annotations'][START_AFTER_ANNOTATION] : undefined
  if (typeof startAfter === 'string') {
    const err = startAfterSyntaxError(startAfter)
    if (err) report(START_AFTER_FIELD, err)
  }
  return validName
}

function validateKeyValues(report: Report, field: string, value: unknown, isLabels: boolean): void {
  const map = getObject(report, field, value)
  if (!map) return
  for (const [key, v] of Object.entries(map)) {
    const path = joinPath(field, keySegment(key))
    const keyError = qualifiedNameError(key)
    if (keyError) report(path, keyError)
    if (typeof v !== 'string') {
      // A common slip: `version: 1.0` or `enabled: true` unquoted in YAML.
      report(path, `must be a string (quote it in YAML), got ${v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v}`)
      continue
    }
    if (isLabels) {
      const err = labelValueError(v)
      if (err) report(path, err)
    }
  }
}
