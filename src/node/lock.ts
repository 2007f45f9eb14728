// One kube-node daemon per root dir. The lock is an exclusive flock(2) on <root-dir>/kube-node.lock,
// inside the root dir that only root may write (0750): no other user can create, replace or even
// open it. The kernel gives the lock to one process and releases it the moment that process's
// descriptor closes, however it dies, so a stale or reused PID never blocks start-up and two
// concurrent starts never both win. (An abstract unix socket, the earlier lock, has no owner or
// permissions: every local user could bind its predictable name first. A PID file alone cannot give
// both guarantees; a mkdir lock goes stale on kill -9.) The file is never removed or replaced, as
// that would let a second process lock a fresh file while the first still holds the old one; it
// holds the owner's PID, for people and tools only.
import {join} from 'node:path'
import {KubeNodeError} from '../util/errors.js'
import {nodeHostFs} from '../host/node-host-fs.js'
import {lockFileHolder, NotALockFileError, realDirOwner, tryLockFile} from '../host/lock-file.js'

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

export async function acquireLock(rootDir: string): Promise<Lock> {
  await nodeHostFs.mkdirPrivate(rootDir)
  await checkRootDirOwnership(rootDir)
  const path = join(rootDir, LOCK_FILE)
  const attempt = await tryLockFile(path).catch((err: unknown) => {
    if (err instanceof NotALockFileError) throw new UnsafeRootDirError(`${path} is not a regular file; remove it and start again`)
    throw err
  })
  if (!attempt.taken) {
    const who = attempt.holder !== undefined ? `pid ${attempt.holder}` : 'another process'
    throw new LockedError(`another kube-node (${who}) is already running with root dir ${rootDir}; stop it first or use another --root-dir`)
  }
  return {path, release: attempt.release}
}

/**
 * The root dir must belong to this user and be writable by no one else; otherwise another user
 * could swap the lock file (and every record beside it). Checked on the real directory.
 */
async function checkRootDirOwnership(rootDir: string): Promise<void> {
  const st = await realDirOwner(rootDir)
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
  return lockFileHolder(join(rootDir, LOCK_FILE))
}
