// hostPath: a directory of the node, checked against its declared type (pkg/volume/hostpath).
import type {VolumeKind} from '../kind.js'
import {checkHostPath} from '../prepare.js'

export const hostPathVolume: VolumeKind = {
  name: 'hostPath',
  matches: (v) => Boolean(v.hostPath),
  hostDir: (_rootDir, _uid, v) => v.hostPath?.path ?? '',
  readOnly: false,
  prepare: (deps, _sp, v) => checkHostPath(deps.fs, v.name, v.hostPath?.path ?? '', v.hostPath?.type ?? ''),
}
