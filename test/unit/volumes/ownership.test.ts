// The fsGroup ownership decisions (the kubelet's SetVolumeOwnership, pkg/volume/volume_linux.go):
// the mode each entry of a volume gets, whether a root is already owned, and when
// fsGroupChangePolicy lets the walk be skipped.
import {describe, expect, it} from 'vitest'
import type {PathInfo} from '../../../src/host/port.js'
import {needsOwnershipWalk, ownedMode, rootOwned} from '../../../src/volumes/ownership.js'

describe('ownedMode', () => {
  it.each<[string, PathInfo['type'], number, boolean, number | undefined]>([
    ['a writable dir: group rwx and setgid', 'directory', 0o755, false, 0o2775],
    ['an emptyDir root (0777)', 'directory', 0o777, false, 0o2777],
    ['a read-only dir: group r-x and setgid', 'directory', 0o755, true, 0o2755],
    ['a private read-only dir gets group r-x', 'directory', 0o700, true, 0o2750],
    ['a dir keeps its sticky bit', 'directory', 0o1777, false, 0o3777],
    ['a writable file: group rw, no x added', 'file', 0o644, false, 0o664],
    ['an executable file keeps its x bits', 'file', 0o755, false, 0o775],
    ['a read-only file: group r', 'file', 0o600, true, 0o640],
    ['a configMap file (0644) stays 0644', 'file', 0o644, true, 0o644],
    ['a file with mode 0 gets owner and group r', 'file', 0o000, true, 0o440],
    ['setuid is dropped from a file (a difference from the kubelet)', 'file', 0o4755, false, 0o775],
    ['setgid is dropped from a file', 'file', 0o2755, true, 0o755],
    ['a FIFO is treated as a file', 'other', 0o600, false, 0o660],
    ['a socket gets group rw', 'socket', 0o755, false, 0o775],
    ['a link keeps its mode (chmod would change its target)', 'symlink', 0o777, false, undefined],
  ])('%s', (_name, type, mode, readOnly, want) => {
    expect(ownedMode(type, mode, readOnly)).toBe(want)
  })
})

const dir = (mode: number, gid: number | undefined): PathInfo => (gid === undefined ? {type: 'directory', size: 0, mode} : {type: 'directory', size: 0, mode, gid})

describe('rootOwned', () => {
  it.each<[string, PathInfo | undefined, boolean, boolean]>([
    ['group, setgid and group rwx: owned', dir(0o2770, 2000), false, true],
    ['more bits than needed: owned (a superset)', dir(0o2777, 2000), false, true],
    ['read-only volume needs only group r-x', dir(0o2750, 2000), true, true],
    ['read-only bits are not enough for a writable volume', dir(0o2750, 2000), false, false],
    ['another group', dir(0o2770, 0), false, false],
    ['no setgid bit', dir(0o770, 2000), false, false],
    ['the group cannot be read', dir(0o2770, undefined), false, false],
    ['missing', undefined, false, false],
    ['not a directory', {type: 'file', size: 0, mode: 0o2770, gid: 2000}, false, false],
  ])('%s', (_name, root, readOnly, want) => {
    expect(rootOwned(root, 2000, readOnly)).toBe(want)
  })
})

describe('needsOwnershipWalk', () => {
  const owned = dir(0o2777, 2000)
  const foreign = dir(0o777, 0)
  it.each<[string, string | undefined, boolean, PathInfo, boolean]>([
    ['no policy: always', undefined, true, owned, true],
    ['Always: even an owned root', 'Always', true, owned, true],
    ['OnRootMismatch with an owned root: skipped', 'OnRootMismatch', true, owned, false],
    ['OnRootMismatch with a foreign root: walks', 'OnRootMismatch', true, foreign, true],
    ['a kind the policy does not apply to (emptyDir, configMap, …): always', 'OnRootMismatch', false, owned, true],
  ])('%s', (_name, policy, applies, root, want) => {
    expect(needsOwnershipWalk(policy, applies, root, 2000, false)).toBe(want)
  })
})
