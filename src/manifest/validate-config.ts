// Validation of the ConfigMaps and Secrets a manifest may carry next to its pods (for
// configMap/secret volumes and env references). Pure.
import type {FieldIssue} from '../util/errors.js'
import {checkBoolean, checkStringMap, getObject, isObject, typeName, type Report} from '../util/check.js'
import {validateMetadata} from './validate-meta.js'
import {withShapeIssues} from './shape-check.js'
import {issueAt, type DocumentRef} from './where.js'
import {joinPath, keySegment} from '../util/field-path.js'
import {validateDockerSecret} from './validate-docker-secret.js'

const DATA_KEY = /^[-._a-zA-Z0-9]+$/
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

export function validateConfigObject(kind: 'ConfigMap' | 'Secret', obj: unknown, where: DocumentRef): FieldIssue[] {
  const issues: FieldIssue[] = []
  const report: Report = (field, message) => issues.push(issueAt(where, field, message))
  if (!isObject(obj)) {
    report('', `must be a ${kind} object, got ${typeName(obj)}`)
    return issues
  }
  validateMetadata(report, obj['metadata'])
  checkBoolean(report, 'immutable', obj['immutable'])
  const dataFields = kind === 'Secret' ? ['data', 'stringData'] : ['data', 'binaryData']
  for (const field of dataFields) {
    checkStringMap(report, field, obj[field])
    const map = getObject(() => undefined, field, obj[field])
    for (const [key, value] of Object.entries(map ?? {})) {
      const path = joinPath(field, keySegment(key))
      if (key.length > 253 || !DATA_KEY.test(key) || key === '.' || key === '..') {
        report(path, `key "${key}" must consist of letters, digits, '-', '_' or '.'`)
      }
      // Secret `data` and ConfigMap `binaryData` hold base64.
      const base64 = field === 'binaryData' || (kind === 'Secret' && field === 'data')
      if (base64 && typeof value === 'string' && (value.replace(/\s/g, '').length % 4 !== 0 || !BASE64.test(value.replace(/\s/g, '')))) {
        report(path, 'must be base64-encoded')
      }
    }
  }
  if (kind === 'Secret') validateDockerSecret(report, obj)
  return withShapeIssues(issues, kind, obj, where)
}
