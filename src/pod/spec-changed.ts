// Has the pod or a container changed since the runtime created it? Hashes are compared with the
// rules of the version that produced them, so an upgrade never restarts running pods. Pure.
import type {Container, Pod} from '../api/types.js'
import type {RuntimeContainer, RuntimeSandbox} from '../kuberuntime/model.js'
import {containerHash, sandboxHash} from '../kuberuntime/hash.js'

export interface HashComparison {
  changed: boolean
  /** The hash the current spec has under the runtime object's version ('' when not compared). */
  want: string
}

const UNCHANGED: HashComparison = {changed: false, want: ''}

// A hash from a version these rules do not know cannot be judged: the object is kept, as an
// adopted one is.
function compare(have: string | undefined, compute: () => string): HashComparison {
  if (have === undefined || have === '') return UNCHANGED
  let want: string
  try {
    want = compute()
  } catch {
    return UNCHANGED
  }
  return {changed: want !== have, want}
}

export function containerSpecChanged(pod: Pod, c: Container, rc: RuntimeContainer): HashComparison {
  return compare(rc.hash, () => containerHash(pod, c, rc.hashVersion))
}

export function sandboxSpecChanged(pod: Pod, s: RuntimeSandbox): HashComparison {
  return compare(s.hash, () => sandboxHash(pod, s.hashVersion))
}
