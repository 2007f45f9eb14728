// Reads a small regular file that a container wrote into one of its pod's volumes (an env file
// for fileKeyRef), as root, without ever leaving that volume. The container controls everything
// below the volume's directory: it may plant `env -> /etc/shadow`, swap a directory for a link
// to `/`, leave a FIFO that would block a reader forever, or a file of gigabytes. So the walk is
// the equivalent of openat(2) with O_NOFOLLOW on every component: each directory is opened
// through the previous one's descriptor (`/proc/self/fd/N/name`), with O_NOFOLLOW so a link at
// any step fails instead of being followed, and nothing is resolved by path twice. The file is
// opened O_NONBLOCK (a FIFO cannot block), checked to be a regular file on the open descriptor,
// and read within a limit. What remains: opening a device node a privileged container created
// (mknod) before fstat refuses it; nothing is read from it.
import {constants} from 'node:fs'
import {open, type FileHandle} from 'node:fs/promises'
import {PathEscapeError} from '../util/contained-path.js'
import {TooLargeError} from '../util/errors.js'

const {O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY, O_NOCTTY} = constants

/** Why a file could not be read safely (a link, not a regular file, too large); the message says which. */
export class UnsafeFileError extends Error {}

function segments(sub: string, field: string): string[] {
  const parts = sub.split('/').filter((p) => p !== '' && p !== '.')
  if (sub.startsWith('/')) throw new PathEscapeError(field, `${JSON.stringify(sub.slice(0, 200))} must be a relative path`)
  if (parts.includes('..')) throw new PathEscapeError(field, `${JSON.stringify(sub.slice(0, 200))} must not contain '..'`)
  if (sub.includes('\0')) throw new PathEscapeError(field, 'must not contain a NUL character')
  if (parts.length === 0) throw new PathEscapeError(field, `${JSON.stringify(sub)} names no file`)
  return parts
}

function missing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code
  return code === 'ENOENT'
}

function refused(err: unknown, sub: string, field: string): Error {
  const code = (err as NodeJS.ErrnoException).code
  // O_NOFOLLOW on a link gives ELOOP; O_DIRECTORY on a link or a file gives ENOTDIR.
  if (code === 'ELOOP' || code === 'EMLINK') return new PathEscapeError(field, `${JSON.stringify(sub.slice(0, 200))} goes through a symbolic link, which is never followed`)
  if (code === 'ENOTDIR') return new PathEscapeError(field, `${JSON.stringify(sub.slice(0, 200))}: a parent is not a directory (or is a symbolic link)`)
  return err as Error
}

/**
 * The bytes of the regular file at relative path `sub` inside the directory `base`; undefined
 * when it (or `base`) does not exist. Refuses, naming `field`: '..', absolute paths, a symbolic
 * link at any step, anything but a regular file, and files over `limit` bytes.
 */
export async function readFileInside(base: string, sub: string, limit: number, field: string): Promise<Buffer | undefined> {
  const parts = segments(sub, field)
  const handles: FileHandle[] = []
  try {
    let dir: FileHandle
    try {
      dir = await open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
    } catch (err) {
      if (missing(err)) return undefined
      throw refused(err, sub, field)
    }
    handles.push(dir)
    for (const [i, part] of parts.entries()) {
      const last = i === parts.length - 1
      const flags = last ? O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY : O_RDONLY | O_DIRECTORY | O_NOFOLLOW
      let next: FileHandle
      try {
        // The proc magic link stands for the open directory itself: `part` is looked up in it,
        // never by a path a container could change in between.
        next = await open(`/proc/self/fd/${dir.fd}/${part}`, flags)
      } catch (err) {
        if (missing(err)) return undefined
        throw refused(err, sub, field)
      }
      handles.push(next)
      dir = next
    }
    const file = dir
    const st = await file.stat()
    if (!st.isFile()) throw new UnsafeFileError(`${field}: ${JSON.stringify(sub.slice(0, 200))} is not a regular file`)
    if (st.size > limit) throw new TooLargeError(`${field}: ${JSON.stringify(sub.slice(0, 200))} is larger than ${limit} bytes`)
    // The size can grow while it is read: never read past the limit.
    const buf = Buffer.alloc(limit + 1)
    let total = 0
    for (;;) {
      const {bytesRead} = await file.read(buf, total, buf.length - total, null)
      if (bytesRead === 0) break
      total += bytesRead
      if (total > limit) throw new TooLargeError(`${field}: ${JSON.stringify(sub.slice(0, 200))} is larger than ${limit} bytes`)
    }
    return buf.subarray(0, total)
  } finally {
    for (const h of handles.reverse()) await h.close().catch(() => undefined)
  }
}
