// downwardAPI: fields of the pod and resources of its containers, written as files on a tmpfs.
import {downwardAPIVolumePath} from '../../kuberuntime/naming.js'
import type {VolumeKind} from '../kind.js'
import {validateDownwardAPI} from '../validate-data.js'
import {prepareProjected} from '../prepare.js'
import {DEFAULT_FILE_MODE, projectDownwardAPIVolume} from '../projection.js'

export const downwardAPIVolume: VolumeKind = {
  name: 'downwardAPI',
  defaults: (v) => {
    if (v.downwardAPI) v.downwardAPI.defaultMode ??= DEFAULT_FILE_MODE
  },
  validate: validateDownwardAPI,
  matches: (v) => Boolean(v.downwardAPI),
  hostDir: (rootDir, uid, v) => downwardAPIVolumePath(rootDir, uid, v.name),
  readOnly: true,
  fsGroup: 'tree',
  project: (v, ctx) => projectDownwardAPIVolume(v.downwardAPI ?? {}, ctx),
  prepare: (deps, pod, v, dir) => prepareProjected(deps, pod, downwardAPIVolume, v, dir, {tmpfs: true}),
}
