// Applies the pod's fsGroup to a volume that kube-node made ready, as the kubelet's volume
// plugins call SetVolumeOwnership at the end of SetUp: the decisions are ownership.ts's, the
// careful walk is the host's (HostFs.setGroupOwnership).
import type {StaticPod, Volume} from '../api/types.js'
import {ConfigError} from '../kuberuntime/errors.js'
import {errorMessage} from '../util/errors.js'
import type {VolumeDeps, VolumeKind} from './kind.js'
import {needsOwnershipWalk, ownedMode} from './ownership.js'

/**
 * The most entries one walk changes. The kubelet walks without a limit (and warns after 30 s);
 * kube-node walks only what it wrote itself (data volumes) or one directory (emptyDir), so the
 * limit only guards against a volume that is not what it should be.
 */
export const OWNERSHIP_WALK_LIMIT = 100_000

/** The pod's fsGroup, when it has one. */
export function podFsGroup(sp: StaticPod): number | undefined {
  return sp.pod.spec.securityContext?.fsGroup
}

/**
 * Gives the volume at `dir` to the pod's fsGroup, the way its kind says (kind.fsGroup); nothing
 * without an fsGroup or for a kind without ownership (hostPath). A walk that fails makes the
 * container's config fail (the kubelet fails the volume's SetUp), naming the volume.
 */
export async function applyFsGroup(deps: VolumeDeps, sp: StaticPod, kind: VolumeKind, v: Volume, dir: string): Promise<void> {
  const gid = podFsGroup(sp)
  if (gid === undefined || kind.fsGroup === undefined) return
  const readOnly = kind.readOnly
  // None of kube-node's kinds is one the kubelet applies fsGroupChangePolicy to (policyApplies false).
  const policy = sp.pod.spec.securityContext?.fsGroupChangePolicy
  if (!needsOwnershipWalk(policy, false, await deps.fs.stat(dir), gid, readOnly)) return
  try {
    const r = await deps.fs.setGroupOwnership(dir, gid, {
      recursive: kind.fsGroup === 'tree',
      limit: OWNERSHIP_WALK_LIMIT,
      mode: (type, mode) => ownedMode(type, mode, readOnly),
    })
    if (r.truncated) {
      deps.logger?.warn('Volume ownership by fsGroup stopped at its limit; the rest keeps its group', {
        pod: sp.pod.metadata.name,
        volume: v.name,
        entries: r.entries,
      })
    }
  } catch (err) {
    throw new ConfigError(`volume "${v.name}": cannot give it to fsGroup ${gid}: ${errorMessage(err)}`)
  }
}
