// emptyDir (or a volume without a source, which the API defaults to one): a directory under the
// pod's data dir, on a tmpfs for `medium: Memory` (pkg/volume/emptydir).
import {emptyDirPath} from '../../../kuberuntime/naming.js'
import type {VolumeKind} from '../kind.js'
import {prepareEmptyDir} from '../prepare.js'

export const emptyDirVolume: VolumeKind = {
  name: 'emptyDir',
  // Listed last in the registry: a volume no other kind claims and that names no source is one.
  matches: (v) => Boolean(v.emptyDir) || Object.keys(v).every((k) => k === 'name'),
  hostDir: (rootDir, uid, v) => emptyDirPath(rootDir, uid, v.name),
  readOnly: false,
  prepare: (deps, _sp, v, dir) => prepareEmptyDir(deps, v, dir),
}
