// projected: configMap, secret and downwardAPI sources merged into one directory on a tmpfs.
import {projectedVolumePath} from '../../kuberuntime/naming.js'
import {getInteger, getItem, getList, getObject, isObject, nested} from '../../util/check.js'
import {unsupported} from '../../util/unsupported.js'
import type {VolumeKind} from '../kind.js'
import {validateDataSource, validateDownwardAPI} from '../validate-data.js'
import {prepareProjected} from '../prepare.js'
import {DEFAULT_FILE_MODE, projectProjectedVolume} from '../projection.js'

export const projectedVolume: VolumeKind = {
  name: 'projected',
  defaults: (v) => {
    if (v.projected) v.projected.defaultMode ??= DEFAULT_FILE_MODE
  },
  validate(s, src) {
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
        } else if (isObject(proj[key])) {
          // serviceAccountToken, clusterTrustBundle, podCertificate need the API server.
          s(`${pf}.${key}`, unsupported(key))
        }
      }
    })
  },
  matches: (v) => Boolean(v.projected),
  hostDir: (rootDir, uid, v) => projectedVolumePath(rootDir, uid, v.name),
  readOnly: true,
  fsGroup: 'tree',
  project: (v, ctx) => projectProjectedVolume(v.projected ?? {}, ctx),
  prepare: (deps, pod, v, dir) => prepareProjected(deps, pod, projectedVolume, v, dir, {tmpfs: true}),
}
