// configMap: the keys of a ConfigMap from the manifests, written as files on disk.
import {configMapVolumePath} from '../../kuberuntime/naming.js'
import type {VolumeKind} from '../kind.js'
import {validateDataSource} from '../validate-data.js'
import {prepareProjected} from '../prepare.js'
import {DEFAULT_FILE_MODE, projectConfigMapVolume} from '../projection.js'

export const configMapVolume: VolumeKind = {
  name: 'configMap',
  defaults: (v) => {
    if (v.configMap) v.configMap.defaultMode ??= DEFAULT_FILE_MODE
  },
  validate: (s, src) => validateDataSource(s, src, 'name'),
  matches: (v) => Boolean(v.configMap),
  hostDir: (rootDir, uid, v) => configMapVolumePath(rootDir, uid, v.name),
  readOnly: true,
  fsGroup: 'tree',
  project: (v, ctx) => projectConfigMapVolume(v.configMap ?? {}, ctx.objects, ctx.pod.metadata?.namespace ?? 'default'),
  // ConfigMaps hold no secrets: on disk, as in the kubelet.
  prepare: (deps, pod, v, dir) => prepareProjected(deps, pod, configMapVolume, v, dir, {tmpfs: false}),
}
