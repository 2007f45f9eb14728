// The root dir's lock file on the real node (node/lock.ts says what it means): opened never
// through a link and never blocking on a FIFO, locked with flock(2) (flock.ts), and holding the
// owner's PID, written in place: the lock is on this inode, a rename would put an unlocked one there.
import {constants} from 'node:fs'
import {open, realpath, stat, type FileHandle} from 'node:fs/promises'
import {errorMessage} from '../util/errors.js'
import {realClock} from '../util/clock.js'
import {holdsExclusiveLock, tryLockExclusive} from './flock.js'

/** Longer than any PID line: what is read of the file to name its holder. */
const MAX_PID_BYTES = 32

/** Something other than a regular file is where the lock file should be. */
export class NotALockFileError extends Error {}

/** Taken (with what releases it), or held by another process (its PID when the file names one). */
export type LockAttempt = {taken: true; release: () => Promise<void>} | {taken: false; holder: string | undefined}

/** Tries to take the exclusive lock on `path` (created 0644 when missing) and writes this PID into it. */
export async function tryLockFile(path: string): Promise<LockAttempt> {
  // The descriptor is close-on-exec (libuv), so only flock(1), to which it is passed on purpose, ever shares it.
  const file = await open(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644)
  try {
    if (!(await file.stat()).isFile()) throw new NotALockFileError(`${path} is not a regular file`)
    if (!(await tryLockExclusive(file.fd))) {
      const holder = await holderOf(file, path)
      await file.close()
      return {taken: false, holder}
    }
    // Without its PID the lock names no holder, and `run` would not see this watch: no start then.
    // Written before the rest is cut off, so that a reader never finds the file empty meanwhile.
    const line = `${process.pid}\n`
    await file.write(line, 0).catch((err: unknown) => {
      throw new Error(`cannot write this process's PID into the lock file ${path}: ${errorMessage(err)}`, {cause: err})
    })
    await file.truncate(Buffer.byteLength(line))
  } catch (err) {
    await file.close()
    throw err
  }
  return {taken: true, release: () => release(file)}
}

/** How long a start that found the lock taken waits for its holder's PID: 20 looks, 50 ms apart. */
const HOLDER_LOOKS = 20
const HOLDER_PAUSE_MS = 50

/**
 * The PID of the process holding the lock, as the file names it and /proc confirms. A holder
 * writes its PID only after it has the lock, so a start racing it may find the file empty or
 * still naming an earlier, dead holder: it looks again for a moment rather than name no one, or
 * the wrong process.
 */
async function holderOf(file: FileHandle, path: string): Promise<string | undefined> {
  for (let look = 1; ; look++) {
    const pid = await readPid(file)
    if (pid !== undefined && (await holdsExclusiveLock(Number(pid), path))) return pid
    if (look >= HOLDER_LOOKS) return undefined
    await realClock.sleep(HOLDER_PAUSE_MS)
  }
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

/** The PID named in the lock file at `path` while that very process holds the lock on it; read, never taken. */
export async function lockFileHolder(path: string): Promise<number | undefined> {
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined)
  if (!file) return undefined
  try {
    const pid = await readPid(file)
    return pid !== undefined && (await holdsExclusiveLock(Number(pid), path)) ? Number(pid) : undefined
  } finally {
    await file.close()
  }
}

/** The owner and permission bits of the real directory behind `dir` (links resolved). */
export async function realDirOwner(dir: string): Promise<{uid: number; mode: number}> {
  const st = await stat(await realpath(dir))
  return {uid: st.uid, mode: st.mode}
}
