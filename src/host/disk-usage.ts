// The `du -x` the kubelet's eviction manager relies on (cadvisor's and fsquota's measure of an
// emptyDir), done safely over a tree a container controls: lstat only (a link is counted as
// itself, never followed), no descent into another filesystem (a mount a container made, or
// /proc bound in), each inode counted once (hard links), and at most `maxEntries` entries per
// measure, so a directory of millions of files costs a bounded amount of work each time. All
// I/O is asynchronous, one directory handle at a time: the sync loop is never blocked.
import {lstat, opendir} from 'node:fs/promises'
import {join} from 'node:path'
import type {DiskUsage, DiskUsageMeter} from './port.js'

/** Enough for any sane emptyDir; a tree beyond it is measured in part (a lower bound). */
export const DEFAULT_MAX_ENTRIES = 100_000

export function createDiskUsageMeter(opts: {maxEntries?: number} = {}): DiskUsageMeter {
  const maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES
  return {measure: (dir) => measureTree(dir, maxEntries)}
}

async function measureTree(dir: string, maxEntries: number): Promise<DiskUsage | undefined> {
  const root = await lstat(dir, {bigint: true}).catch(() => undefined)
  if (!root?.isDirectory()) return undefined
  const seen = new Set<bigint>()
  let bytes = root.blocks * 512n
  let entries = 0
  const pending: string[] = [dir]
  while (pending.length > 0) {
    const current = pending.pop()!
    // A directory removed (or replaced) while it is walked is simply skipped.
    const handle = await opendir(current).catch(() => undefined)
    if (!handle) continue
    // for-await closes the handle when the walk ends or returns early.
    for await (const entry of handle) {
      if (++entries > maxEntries) return {bytes: Number(bytes), truncated: true}
      const path = join(current, entry.name)
      const st = await lstat(path, {bigint: true}).catch(() => undefined)
      // Another filesystem is not the emptyDir's usage (and may be huge or endless).
      if (!st || st.dev !== root.dev) continue
      if (st.nlink > 1n && !st.isDirectory()) {
        if (seen.has(st.ino)) continue
        seen.add(st.ino)
      }
      bytes += st.blocks * 512n
      if (st.isDirectory()) pending.push(path)
    }
  }
  return {bytes: Number(bytes), truncated: false}
}
