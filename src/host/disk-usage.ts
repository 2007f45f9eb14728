// The `du -x` the kubelet's eviction manager relies on (cadvisor's and fsquota's measure of an
// emptyDir), done safely over a tree a container controls: every directory is opened through its
// parent's descriptor (`/proc/self/fd/N/name`) with O_NOFOLLOW and checked to be the entry just
// listed, so a container that swaps a directory for a link mid-walk cannot point the measure
// elsewhere; links are counted as themselves, never followed; no descent into another filesystem
// (a mount a container made, or /proc bound in); each inode counted once (hard links); at most
// `maxEntries` entries and MAX_DEPTH levels per measure, so a directory of millions of files
// costs a bounded amount of work each time. All I/O is asynchronous: the sync loop never blocks.
import {constants} from 'node:fs'
import {lstat, open, opendir, type FileHandle} from 'node:fs/promises'
import type {DiskUsage, DiskUsageMeter} from './port.js'

const {O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY, O_NOCTTY} = constants
const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY

/** Enough for any sane emptyDir; a tree beyond it is measured in part (a lower bound). */
export const DEFAULT_MAX_ENTRIES = 100_000
/** Directories deeper than this are not entered (one descriptor is open per level). */
const MAX_DEPTH = 256

export function createDiskUsageMeter(opts: {maxEntries?: number} = {}): DiskUsageMeter {
  const maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES
  return {measure: (dir) => measureTree(dir, maxEntries)}
}

interface Walk {
  dev: bigint
  seen: Set<bigint>
  bytes: bigint
  entries: number
  maxEntries: number
  truncated: boolean
}

async function measureTree(dir: string, maxEntries: number): Promise<DiskUsage | undefined> {
  // A link (or anything but a directory) in the volume's place measures nothing.
  const root = await open(dir, DIR_FLAGS).catch(() => undefined)
  if (!root) return undefined
  try {
    const st = await root.stat({bigint: true})
    const w: Walk = {dev: st.dev, seen: new Set(), bytes: st.blocks * 512n, entries: 0, maxEntries, truncated: false}
    await walk(root, 0, w)
    return {bytes: Number(w.bytes), truncated: w.truncated}
  } finally {
    await root.close()
  }
}

async function walk(dir: FileHandle, depth: number, w: Walk): Promise<void> {
  if (depth >= MAX_DEPTH) {
    w.truncated = true
    return
  }
  const base = `/proc/self/fd/${dir.fd}`
  // A directory removed while it is walked is simply skipped.
  const handle = await opendir(base).catch(() => undefined)
  if (!handle) return
  // for-await closes the handle when the walk ends or returns early.
  for await (const entry of handle) {
    if (++w.entries > w.maxEntries) {
      w.truncated = true
      return
    }
    const path = `${base}/${entry.name}`
    const st = await lstat(path, {bigint: true}).catch(() => undefined)
    // Another filesystem is not the emptyDir's usage (and may be huge or endless).
    if (!st || st.dev !== w.dev) continue
    if (st.nlink > 1n && !st.isDirectory()) {
      if (w.seen.has(st.ino)) continue
      w.seen.add(st.ino)
    }
    w.bytes += st.blocks * 512n
    if (!st.isDirectory()) continue
    const sub = await open(path, DIR_FLAGS).catch(() => undefined)
    if (!sub) continue
    try {
      const now = await sub.stat({bigint: true})
      // Swapped for another directory between the lstat and the open: not this tree's.
      if (now.ino === st.ino && now.dev === st.dev) await walk(sub, depth + 1, w)
    } finally {
      await sub.close()
    }
    if (w.truncated) return
  }
}
