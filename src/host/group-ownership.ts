// Gives a volume's directory tree to a group (the kubelet's fsGroup walk, SetVolumeOwnership),
// as root, without ever leaving the volume. What a container can write (an emptyDir it shares)
// may hold `x -> /etc`, a directory swapped for a link mid-walk, FIFOs, device nodes, mounts or
// millions of files. So, as read-inside.ts: each entry is looked up in its parent's open
// descriptor (`/proc/self/fd/N/name`) and never by a path a container could change; directories
// and regular files are opened O_NOFOLLOW and changed through the descriptor (fchown, fchmod),
// after checking it is the entry that was listed (same inode); links only get their own group
// (lchown does not follow the last component); FIFOs, sockets and devices are never opened (an
// open can act on a device) and only get their group; an entry on another filesystem is left
// alone; and the walk stops after a number of entries and a depth.
import {constants, type Stats} from 'node:fs'
import {lchown, lstat, open, opendir, type FileHandle} from 'node:fs/promises'
import type {OwnershipResult, PathInfo} from './port.js'

const {O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY, O_NOCTTY} = constants

/** Deeper directories are left as they are (and the result says truncated). */
const MAX_DEPTH = 256

type ModeFn = (type: PathInfo['type'], mode: number) => number | undefined

interface Walk {
  gid: number
  dev: number
  limit: number
  mode: ModeFn
  entries: number
  truncated: boolean
}

const gone = (err: unknown): boolean => {
  const code = (err as NodeJS.ErrnoException).code
  // ENOENT: removed meanwhile; ELOOP/ENOTDIR: replaced by a link or a file since it was listed.
  return code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR'
}

/** The group and mode of an open directory or regular file, changed only where they differ. */
async function own(h: FileHandle, st: Stats, w: Walk): Promise<void> {
  const type: PathInfo['type'] = st.isDirectory() ? 'directory' : 'file'
  if (st.gid !== w.gid) await h.chown(-1, w.gid)
  const mode = w.mode(type, st.mode & 0o7777)
  // The chown may have cleared setuid/setgid of a file; read the mode again before comparing.
  const now = st.gid !== w.gid ? (await h.stat()).mode & 0o7777 : st.mode & 0o7777
  if (mode !== undefined && mode !== now) await h.chmod(mode)
}

async function walkChildren(dir: FileHandle, depth: number, w: Walk): Promise<void> {
  if (depth >= MAX_DEPTH) {
    w.truncated = true
    return
  }
  const base = `/proc/self/fd/${dir.fd}`
  // opendir streams the names: a directory of millions of entries is never read whole.
  const entries = await opendir(base)
  try {
    for await (const e of entries) {
      if (w.entries >= w.limit) {
        w.truncated = true
        return
      }
      const path = `${base}/${e.name}`
      const st = await lstat(path).catch((err: unknown) => {
        if (gone(err)) return undefined
        throw err
      })
      if (!st || st.dev !== w.dev) continue
      w.entries++
      if (st.isDirectory() || st.isFile()) {
        const flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | (st.isDirectory() ? O_DIRECTORY : 0)
        const h = await open(path, flags).catch((err: unknown) => {
          if (gone(err)) return undefined
          throw err
        })
        if (!h) continue
        try {
          const hs = await h.stat()
          // Swapped for another entry between the lstat and the open: leave it.
          if (hs.ino !== st.ino || hs.dev !== st.dev) continue
          if (hs.isDirectory()) await walkChildren(h, depth + 1, w)
          await own(h, hs, w)
        } finally {
          await h.close()
        }
        if (w.truncated) return
      } else if (st.gid !== w.gid) {
        // A link, FIFO, socket or device: its own group only, nothing followed or opened.
        await lchown(path, -1, w.gid).catch((err: unknown) => {
          if (!gone(err)) throw err
        })
      }
    }
  } finally {
    await entries.close().catch(() => undefined)
  }
}

export async function setGroupOwnership(dir: string, gid: number, opts: {recursive: boolean; limit: number; mode: ModeFn}): Promise<OwnershipResult> {
  // The volume's own directory is kube-node's: a link in its place is refused (ELOOP/ENOTDIR).
  const root = await open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
  try {
    const st = await root.stat()
    const w: Walk = {gid, dev: st.dev, limit: opts.limit, mode: opts.mode, entries: 1, truncated: false}
    if (opts.recursive) await walkChildren(root, 0, w)
    // The root last, as the kubelet: a walk cut short leaves the root as it was, so that a check
    // of the root alone (OnRootMismatch) never takes a half-done volume for a done one.
    if (!w.truncated) await own(root, st, w)
    return {entries: w.entries, truncated: w.truncated}
  } finally {
    await root.close()
  }
}
