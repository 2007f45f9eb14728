// emptyDir (or a volume without a source, which the API defaults to one): a directory under the
// pod's data dir, on a tmpfs for `medium: Memory` (pkg/volume/emptydir), with the `mode` asked for.
import {emptyDirPath} from '../../kuberuntime/naming.js'
import {checkEnum, show} from '../../util/check.js'
import {NOT_A_QUANTITY, quantityProblem} from '../../util/quantity.js'
import type {VolumeKind} from '../kind.js'
import {EMPTY_DIR_MAX_MODE, prepareEmptyDir} from '../prepare.js'

export const emptyDirVolume: VolumeKind = {
  name: 'emptyDir',
  validate(s, src) {
    checkEnum(s, 'medium', src['medium'], ['', 'Memory', 'HugePages'])
    if (src['sizeLimit'] !== undefined) {
      const problem = quantityProblem(src['sizeLimit'])
      if (problem) s('sizeLimit', `must be a quantity such as "1Gi", got ${show(src['sizeLimit'])}${problem === NOT_A_QUANTITY ? '' : ` (${problem})`}`)
    }
    const mode = src['mode']
    if (mode !== undefined && mode !== null && (typeof mode !== 'number' || !Number.isInteger(mode) || mode < 0 || mode > EMPTY_DIR_MAX_MODE)) {
      s('mode', `must be a number between 0 and 01777 (octal; 1023 in decimal), both inclusive, got ${show(mode)}`)
    }
  },
  // Listed last in the registry: a volume no other kind claims and that names no source is one.
  matches: (v) => Boolean(v.emptyDir) || Object.keys(v).every((k) => k === 'name'),
  hostDir: (rootDir, uid, v) => emptyDirPath(rootDir, uid, v.name),
  readOnly: false,
  fsGroup: 'root',
  prepare: (deps, _pod, v, dir) => prepareEmptyDir(deps, v, dir),
}
