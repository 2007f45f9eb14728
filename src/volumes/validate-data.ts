// Validation shared by the data volume kinds (configMap, secret, downwardAPI, and the sources of
// projected volumes): names, modes and file paths that stay inside the volume.
import {checkBoolean, getInteger, getItem, getList, getObject, getString, type JsonObject, type Report} from '../util/check.js'
import {filePathError} from '../util/relative-path.js'

export function validateDataSource(s: Report, src: JsonObject, nameKey: 'name' | 'secretName'): void {
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
export function validateDownwardAPI(s: Report, src: JsonObject): void {
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
