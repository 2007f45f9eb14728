// projected: configMap, secret and downwardAPI sources merged into one directory on a tmpfs.
import {projectedVolumePath} from '../../../kuberuntime/naming.js'
import type {VolumeKind} from '../kind.js'
import {prepareProjected} from '../prepare.js'
import {projectProjectedVolume} from '../projection.js'

export const projectedVolume: VolumeKind = {
  name: 'projected',
  matches: (v) => Boolean(v.projected),
  hostDir: (rootDir, uid, v) => projectedVolumePath(rootDir, uid, v.name),
  readOnly: true,
  project: (v, ctx) => projectProjectedVolume(v.projected ?? {}, ctx),
  prepare: (deps, sp, v, dir) => prepareProjected(deps, sp, projectedVolume, v, dir, {tmpfs: true}),
}
