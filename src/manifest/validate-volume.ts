// Validation of `spec.volumes`. kube-node can provide node-local volumes (emptyDir, hostPath)
// and manifest-defined data (configMap, secret, downwardAPI, projected); anything that needs
// the API server or a storage plugin is reported as unsupported. Pure.
import {checkBoolean, checkEnum, getInteger, getItem, getList, getObject, getString, isObject, nested, show, UNSUPPORTED, type JsonObject, type Report} from './check.js'
import {dnsLabelError, quantityProblem, NOT_A_QUANTITY} from './names.js'
import {presentSources, UNSUPPORTED_SOURCES} from './volume-sources.js'
import {filePathError} from '../util/relative-path.js'

const HOST_PATH_TYPES = ['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice']

/** Validates `spec.volumes` (report prefixed with `spec`); returns the valid volume names. */
export function validateVolumes(report: Report, v: unknown): Set<string> {
  const names = new Set<string>()
  getList(report, 'volumes', v)?.forEach((item, i) => {
    const f = `volumes[${i}]`
    const vol = getItem(report, f, item)
    if (!vol) return
    const r = nested(report, f)
    const name = getString(r, 'name', vol['name'])
    if (!name) r('name', 'must be set')
    else {
      const err = dnsLabelError(name)
      if (err) r('name', err)
      else if (names.has(name)) r('name', `must be unique: volume "${name}" is defined twice`)
      names.add(name)
    }
    const present = presentSources(vol)
    // No source at all is fine: it becomes an emptyDir, as in the API defaults.
    if (present.length > 1) r('', `must have exactly one volume source, got ${present.length} (${present.join(', ')})`)
    for (const k of present) {
      if ((UNSUPPORTED_SOURCES as readonly string[]).includes(k)) r(k, UNSUPPORTED)
      else validateSource(r, k, vol[k])
    }
  })
  return names
}

function validateSource(r: Report, kind: string, value: unknown): void {
  const src = getObject(r, kind, value)
  if (!src) return
  const s = nested(r, kind)
  switch (kind) {
    case 'emptyDir':
      checkEnum(s, 'medium', src['medium'], ['', 'Memory', 'HugePages'])
      if (src['sizeLimit'] !== undefined) {
        const problem = quantityProblem(src['sizeLimit'])
        if (problem) s('sizeLimit', `must be a quantity such as "1Gi", got ${show(src['sizeLimit'])}${problem === NOT_A_QUANTITY ? '' : ` (${problem})`}`)
      }
      break
    case 'hostPath': {
      const path = getString(s, 'path', src['path'])
      if (!path) s('path', 'must be set')
      else if (!path.startsWith('/')) s('path', `must be an absolute path, got "${path}"`)
      checkEnum(s, 'type', src['type'], HOST_PATH_TYPES)
      break
    }
    case 'configMap':
    case 'secret':
      validateDataSource(s, src, kind === 'secret' ? 'secretName' : 'name')
      break
    case 'downwardAPI':
      validateDownwardAPI(s, src)
      break
    case 'projected':
      getInteger(s, 'defaultMode', src['defaultMode'], 0, 0o777)
      getList(s, 'sources', src['sources'])?.forEach((p, i) => {
        const pf = `sources[${i}]`
        const proj = getItem(s, pf, p)
        if (!proj) return
        for (const key of Object.keys(proj)) {
          if (key === 'configMap' || key === 'secret') {
            const inner = getObject(s, `${pf}.${key}`, proj[key])
            if (inner) validateDataSource(nested(s, `${pf}.${key}`), inner, 'name')
          } else if (key === 'downwardAPI') {
            const inner = getObject(s, `${pf}.${key}`, proj[key])
            if (inner) validateDownwardAPI(nested(s, `${pf}.${key}`), inner)
          } else if (key !== 'downwardAPI' && isObject(proj[key])) {
            // serviceAccountToken, clusterTrustBundle, podCertificate need the API server.
            s(`${pf}.${key}`, UNSUPPORTED)
          }
        }
      })
      break
  }
}

function validateDataSource(s: Report, src: JsonObject, nameKey: 'name' | 'secretName'): void {
  if (!getString(s, nameKey, src[nameKey])) s(nameKey, 'must be set')
  getInteger(s, 'defaultMode', src['defaultMode'], 0, 0o777)
  checkBoolean(s, 'optional', src['optional'])
  getList(s, 'items', src['items'])?.forEach((it, i) => {
    const item = getItem(s, `items[${i}]`, it)
    if (!item) return
    if (!getString(s, `items[${i}].key`, item['key'])) s(`items[${i}].key`, 'must be set')
    const path = getString(s, `items[${i}].path`, item['path'])
    if (!path) s(`items[${i}].path`, 'must be set')
    else {
      const err = filePathError(path)
      if (err) s(`items[${i}].path`, `${err}, got ${JSON.stringify(path.slice(0, 200))}`)
    }
    getInteger(s, `items[${i}].mode`, item['mode'], 0, 0o777)
  })
}

/** downwardAPI items: a file path and exactly one of fieldRef or resourceFieldRef each. */
function validateDownwardAPI(s: Report, src: JsonObject): void {
  getInteger(s, 'defaultMode', src['defaultMode'], 0, 0o777)
  getList(s, 'items', src['items'])?.forEach((it, i) => {
    const f = `items[${i}]`
    const item = getItem(s, f, it)
    if (!item) return
    const path = getString(s, `${f}.path`, item['path'])
    if (!path) s(`${f}.path`, 'must be set')
    else {
      const err = filePathError(path)
      if (err) s(`${f}.path`, `${err}, got ${JSON.stringify(path.slice(0, 200))}`)
    }
    getInteger(s, `${f}.mode`, item['mode'], 0, 0o777)
    const refs = ['fieldRef', 'resourceFieldRef'].filter((k) => item[k] !== undefined && item[k] !== null)
    if (refs.length !== 1) s(f, `must have exactly one of fieldRef, resourceFieldRef, got ${refs.length}`)
    const fieldRef = getObject(s, `${f}.fieldRef`, item['fieldRef'])
    if (fieldRef && !getString(s, `${f}.fieldRef.fieldPath`, fieldRef['fieldPath'])) s(`${f}.fieldRef.fieldPath`, 'must be set')
    const resRef = getObject(s, `${f}.resourceFieldRef`, item['resourceFieldRef'])
    if (resRef && !getString(s, `${f}.resourceFieldRef.resource`, resRef['resource'])) s(`${f}.resourceFieldRef.resource`, 'must be set')
  })
}
