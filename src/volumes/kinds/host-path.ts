// hostPath: a directory of the node, checked against its declared type (pkg/volume/hostpath).
import {checkEnum, getString} from '../../util/check.js'
import type {VolumeKind} from '../kind.js'
import {checkHostPath, HOST_PATH_TYPES} from '../prepare.js'

export const hostPathVolume: VolumeKind = {
  name: 'hostPath',
  defaults: (v) => {
    if (v.hostPath) v.hostPath.type ??= ''
  },
  validate(s, src) {
    const path = getString(s, 'path', src['path'])
    if (!path) s('path', 'must be set')
    else if (!path.startsWith('/')) s('path', `must be an absolute path, got "${path}"`)
    checkEnum(s, 'type', src['type'], ['', ...HOST_PATH_TYPES])
  },
  matches: (v) => Boolean(v.hostPath),
  hostDir: (_rootDir, _uid, v) => v.hostPath?.path ?? '',
  readOnly: false,
  prepare: (deps, _pod, v) => checkHostPath(deps.fs, v.name, v.hostPath?.path ?? '', v.hostPath?.type ?? ''),
}
