// secret: the keys of a Secret from the manifests, written as files on a tmpfs.
import {secretVolumePath} from '../../kuberuntime/naming.js'
import type {VolumeKind} from '../kind.js'
import {validateDataSource} from '../validate-data.js'
import {prepareProjected} from '../prepare.js'
import {DEFAULT_FILE_MODE, projectSecretVolume} from '../projection.js'

export const secretVolume: VolumeKind = {
  name: 'secret',
  defaults: (v) => {
    if (v.secret) v.secret.defaultMode ??= DEFAULT_FILE_MODE
  },
  validate: (s, src) => validateDataSource(s, src, 'secretName'),
  matches: (v) => Boolean(v.secret),
  hostDir: (rootDir, uid, v) => secretVolumePath(rootDir, uid, v.name),
  readOnly: true,
  fsGroup: 'tree',
  project: (v, ctx) => projectSecretVolume(v.secret ?? {}, ctx.objects, ctx.pod.metadata?.namespace ?? 'default'),
  prepare: (deps, pod, v, dir) => prepareProjected(deps, pod, secretVolume, v, dir, {tmpfs: true}),
}
