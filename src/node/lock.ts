// One kube-node daemon per root dir. The lock is an exclusive flock(2) on <root-dir>/kube-node.lock,
// inside the root dir that only root may write (0750): no other user can create, replace or even
// open it. The kernel gives the lock to one process and releases it the moment that process's
// descriptor closes, however it dies, so a stale or reused PID never blocks start-up and two
// concurrent starts never both win. (An abstract unix socket, the earlier lock, has no owner or
// permissions: every local user could bind its predictable name first. A PID file alone cannot give
// both guarantees; a mkdir lock goes stale on kill -9.) The file is never removed or replaced, as
// that would let a second process lock a fresh file while the first still holds the old one; it
// holds the owner's PID, for people and tools only.
import {constants} from 'node:fs'
import {open, realpath, stat, type FileHandle} from 'node:fs/promises'
import {join} from 'node:path'
import {KubeNodeError} from '../util/errors.js'
import {nodeHostFs} from '../host/node-host-fs.js'
import {holdsExclusiveLock, tryLockExclusive} from '../host/flock.js'

export class LockedError extends KubeNodeError {
  readonly kind = 'Locked'
}

/** The root dir could be changed by another user: what it holds (the lock first) cannot be trusted. */
export class UnsafeRootDirError extends KubeNodeError {
  readonly kind = 'UnsafeRootDir'
}

export const LOCK_FILE = 'kube-node.lock'

export interface Lock {
  path: string
  release(): Promise<void>
}

/** Longer than any PID line: what is read of the file to name its holder. */
const MAX_PID_BYTES = 32

export async function acquireLock(rootDir: string): Promise<Lock> {
  await nodeHostFs.mkdirPrivate(rootDir)
  await checkRootDirOwnership(rootDir)
  const path = join(rootDir, LOCK_FILE)
  // Never through a link, never blocking on a FIFO; the descriptor is close-on-exec (libuv), so
  // only flock(1), to which it is passed on purpose, ever shares it.
  const file = await open(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644)
  try {
    if (!(await file.stat()).isFile()) throw new UnsafeRootDirError(`${path} is not a regular file; remove it and start again`)
    if (!(await tryLockExclusive(file.fd))) {
      const holder = await readPid(file)
      const who = holder !== undefined ? `pid ${holder}` : 'another process'
      throw new LockedError(`another kube-node (${who}) is already running with root dir ${rootDir}; stop it first or use another --root-dir`)
    }
    // Written in place: the lock is on this inode, a rename would put an unlocked one there.
    await file.truncate(0)
    await file.write(`${process.pid}\n`, 0)
  } catch (err) {
    await file.close()
    throw err
  }
  return {path, release: () => release(file)}
}

async function readPid(file: FileHandle): Promise<string | undefined> {
  const buf = Buffer.alloc(MAX_PID_BYTES)
  const {bytesRead} = await file.read(buf, 0, buf.length, 0).catch(() => ({bytesRead: 0}))
  const text = buf.subarray(0, bytesRead).toString('utf8').trim()
  return /^\d+$/.test(text) ? text : undefined
}

async function release(file: FileHandle): Promise<void> {
  // Emptied while still held, so no later owner's PID is erased; closing releases the lock.
  if ((await readPid(file)) === String(process.pid)) await file.truncate(0).catch(() => undefined)
  await file.close()
}

/**
 * The root dir must belong to this user and be writable by no one else; otherwise another user
 * could swap the lock file (and every record beside it). Checked on the real directory.
 */
async function checkRootDirOwnership(rootDir: string): Promise<void> {
  const real = await realpath(rootDir)
  const st = await stat(real)
  const uid = process.getuid?.()
  if (uid !== undefined && st.uid !== uid) {
    throw new UnsafeRootDirError(`root dir ${rootDir} belongs to uid ${st.uid}, not to this user (uid ${uid}): another user could take its lock and change its records; use a directory of your own`)
  }
  if ((st.mode & 0o022) !== 0) {
    throw new UnsafeRootDirError(`root dir ${rootDir} is writable by its group or by others (mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')}): another user could take its lock and change its records; make it 0750 (chmod 0750 ${rootDir})`)
  }
}

/**
 * The PID of the process that holds the root dir's lock (a running `watch`), or undefined. Read,
 * never taken: a command that only asks must not block a watch starting at the same moment. The
 * PID in the file counts only while that very process holds the lock on it (/proc), so a stale
 * file or a reused PID names no one.
 */
export async function lockHolder(rootDir: string): Promise<number | undefined> {
  const path = join(rootDir, LOCK_FILE)
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined)
  if (!file) return undefined
  try {
    const pid = await readPid(file)
    return pid !== undefined && (await holdsExclusiveLock(Number(pid), path)) ? Number(pid) : undefined
  } finally {
    await file.close()
  }
}
