// A volume's ownership by the pod's fsGroup, as the kubelet's volume plugins call
// SetVolumeOwnership at the end of SetUp (pkg/volume/volume_linux.go): the pure decisions (which
// mode each entry of a volume gets, and whether a volume's root already has what the walk would
// give it) and applying them to a volume kube-node made ready. The walk itself is a host effect
// (HostFs.setGroupOwnership); the volume kinds say whether it applies (kind.ts `fsGroup`). Like
// the kubelet: every entry's group becomes fsGroup; a writable volume gives the group rw (0660), a
// read-only one r (0440); directories also get x (0110) and the setgid bit, so that what
// containers create later inherits the group; links keep their mode (a chmod would change their target).
import type {PathInfo} from '../host/port.js'
import type {PodSpec, StaticPod, Volume} from '../api/types.js'
import {ConfigError} from '../kuberuntime/errors.js'
import {errorMessage} from '../util/errors.js'
import type {VolumeDeps, VolumeKind} from './kind.js'

const RW_MASK = 0o660
const RO_MASK = 0o440
const EXEC_MASK = 0o110
const SETGID = 0o2000
const SETUID = 0o4000

/**
 * The mode an entry of a volume gets under fsGroup, or undefined when its mode must stay (a
 * link: the kubelet skips chmod for links). A deliberate difference from the kubelet: a
 * non-directory loses its setuid/setgid bits instead of getting them back after the chown, so a
 * program a container left with setuid never becomes group-writable while keeping them.
 */
export function ownedMode(type: PathInfo['type'], mode: number, readOnly: boolean): number | undefined {
  if (type === 'symlink') return undefined
  const mask = readOnly ? RO_MASK : RW_MASK
  if (type === 'directory') return (mode & 0o7777) | mask | EXEC_MASK | SETGID
  return (mode & 0o7777 & ~(SETUID | SETGID)) | mask
}

/**
 * True when a volume's root already has what the walk would give it (the kubelet's
 * requiresPermissionChange, negated): a directory of group fsGroup with the setgid bit and at
 * least the group bits the walk adds. It is what `fsGroupChangePolicy: OnRootMismatch` checks.
 */
export function rootOwned(root: PathInfo | undefined, fsGroup: number, readOnly: boolean): boolean {
  if (root?.type !== 'directory' || root.gid !== fsGroup) return false
  const want = (readOnly ? RO_MASK : RW_MASK) | EXEC_MASK
  return (root.mode & want) === want && (root.mode & SETGID) !== 0
}

/**
 * Whether the ownership walk runs for a volume. The kubelet consults fsGroupChangePolicy only
 * for volume types that support it (persistent volumes); for emptyDir, configMap, secret,
 * downwardAPI and projected volumes — every kind kube-node provides — it passes no policy and
 * always walks (the API documents that the policy has no effect on them). `OnRootMismatch`
 * skips the walk when the root is already right; `Always` (or no policy) never skips.
 */
export function needsOwnershipWalk(policy: string | undefined, policyApplies: boolean, root: PathInfo | undefined, fsGroup: number, readOnly: boolean): boolean {
  if (!policyApplies || policy !== 'OnRootMismatch') return true
  return !rootOwned(root, fsGroup, readOnly)
}

/**
 * The most entries one walk changes. The kubelet walks without a limit (and warns after 30 s);
 * kube-node walks only what it wrote itself (data volumes) or one directory (emptyDir), so the
 * limit only guards against a volume that is not what it should be.
 */
export const OWNERSHIP_WALK_LIMIT = 100_000

/** The pod's fsGroup, when it has one. */
export function podFsGroup(spec: PodSpec): number | undefined {
  return spec.securityContext?.fsGroup
}

/**
 * Gives the volume at `dir` to the pod's fsGroup, the way its kind says (kind.fsGroup); nothing
 * without an fsGroup or for a kind without ownership (hostPath). A walk that fails makes the
 * container's config fail (the kubelet fails the volume's SetUp), naming the volume.
 */
export async function applyFsGroup(deps: VolumeDeps, pod: StaticPod['pod'], kind: VolumeKind, v: Volume, dir: string): Promise<void> {
  const gid = podFsGroup(pod.spec)
  if (gid === undefined || kind.fsGroup === undefined) return
  const readOnly = kind.readOnly
  // None of kube-node's kinds is one the kubelet applies fsGroupChangePolicy to (policyApplies false).
  const policy = pod.spec.securityContext?.fsGroupChangePolicy
  if (!needsOwnershipWalk(policy, false, await deps.fs.stat(dir), gid, readOnly)) return
  try {
    const r = await deps.fs.setGroupOwnership(dir, gid, {
      recursive: kind.fsGroup === 'tree',
      limit: OWNERSHIP_WALK_LIMIT,
      mode: (type, mode) => ownedMode(type, mode, readOnly),
    })
    if (r.truncated) {
      deps.logger?.warn('Volume ownership by fsGroup stopped at its limit; the rest keeps its group', {
        pod: pod.metadata.name,
        volume: v.name,
        entries: r.entries,
      })
    }
  } catch (err) {
    throw new ConfigError(`volume "${v.name}": cannot give it to fsGroup ${gid}: ${errorMessage(err)}`)
  }
}
