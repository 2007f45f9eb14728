// The kubelet's volume ownership by fsGroup (pkg/volume/volume_linux.go, SetVolumeOwnership), as
// pure decisions: which mode each entry of a volume gets, and whether a volume's root already has
// what the walk would give it. The walk itself is a host effect (HostFs.setGroupOwnership); the
// volume kinds say whether it applies (kind.ts `fsGroup`). Like the kubelet: every entry's group
// becomes fsGroup; a writable volume gives the group rw (0660), a read-only one r (0440);
// directories also get x (0110) and the setgid bit, so that what containers create later
// inherits the group; links keep their mode (a chmod would change their target).
import type {PathInfo} from '../host/port.js'

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
