// Validation of `spec.volumes`. kube-node can provide node-local volumes (emptyDir, hostPath)
// and manifest-defined data (configMap, secret, downwardAPI, projected); anything that needs
// the API server or a storage plugin is reported as unsupported. Each kind validates its own
// source (volumes/kinds). Pure.
import {getItem, getList, getObject, getString, nested, type Report} from '../util/check.js'
import {unsupported} from '../util/unsupported.js'
import {dnsLabelError} from './names.js'
import {presentSources, UNSUPPORTED_SOURCES} from './volume-sources.js'
import {volumeKindNamed} from '../volumes/registry.js'
import {validateImageVolume} from './validate-runtime-fields.js'

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
      if ((UNSUPPORTED_SOURCES as readonly string[]).includes(k)) r(k, unsupported(k))
      else if (k === 'image') validateImageVolume(r, vol[k])
      else validateSource(r, k, vol[k])
    }
  })
  return names
}

function validateSource(r: Report, kind: string, value: unknown): void {
  const src = getObject(r, kind, value)
  if (src) volumeKindNamed(kind)?.validate(nested(r, kind), src)
}
