// A volumeMount's subPath resolved on the host the safe way (the CVE-2017-1002101 class): the
// walk starts at the volume's real directory and, component by component, resolves symlinks and
// checks that every step stays inside the volume; missing directories are created there (with
// the volume's own mode, as the kubelet does) and never through a link. The runtime is then
// handed the fully resolved path (apply/volumes/subpath.ts), so a link a container planted cannot redirect the mount.
// What remains: a container sharing the volume could swap a directory of that resolved path for a
// link in the instant between this check and the runtime's mount (the kubelet closes it by
// mounting an open file descriptor, which needs mount(2) from here); containers of one pod only.
import {lstat, mkdir, realpath, stat} from 'node:fs/promises'
import {join} from 'node:path'
import {isInside, PathEscapeError} from '../util/contained-path.js'

/** The real path of `sub` inside `volumeDir`; PathEscapeError naming `field` when it leaves it. */
export async function resolveInside(volumeDir: string, sub: string, field: string): Promise<string> {
  const base = await realpath(volumeDir)
  const mode = (await stat(base)).mode & 0o7777
  let cur = base
  for (const part of sub.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') throw new PathEscapeError(field, `${JSON.stringify(sub)} must not contain '..'`)
    const next = join(cur, part)
    let st = await lstat(next).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined
      throw err
    })
    if (!st) {
      // `cur` is real and inside: the new directory cannot land anywhere else.
      await mkdir(next, {mode}).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err
      })
      st = await lstat(next)
    }
    const real = st.isSymbolicLink() ? await realpath(next) : next
    if (!isInside(base, real)) {
      throw new PathEscapeError(field, `${JSON.stringify(sub)} leads outside its volume through a symbolic link`)
    }
    cur = real
  }
  return cur
}
