// flock(2) without a native addon. util-linux's flock(1) locks a descriptor it inherits from this
// process and exits; the lock belongs to the open file description, which stays ours, so the
// kernel releases it when our descriptor closes, however this process ends (kill -9 included).
// Whether another process holds one is read from /proc (its fd and fdinfo), not by locking.
import {readdir, readFile, stat} from 'node:fs/promises'
import {KubeNodeError} from '../util/errors.js'

export class FlockError extends KubeNodeError {
  readonly kind = 'Flock'
}

/** Where flock(1) is looked for when PATH has none (systemd units may set a short PATH). */
const FLOCK_PATHS = ['flock', '/usr/bin/flock', '/bin/flock']

/** flock(1) exits 1 when `-n` finds the lock taken. */
const CONFLICT_EXIT = 1

async function runFlock(file: string, fd: number): Promise<number> {
  // Loaded on first use: `run` and the readers import the lock module only to ask who holds it.
  const {spawn} = await import('node:child_process')
  return new Promise((resolve, reject) => {
    // The descriptor becomes the child's fd 3; `flock -n -x 3` locks it and exits at once.
    const child = spawn(file, ['-n', '-x', '3'], {stdio: ['ignore', 'ignore', 'pipe', fd]})
    let stderr = ''
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-512)))
    child.once('error', reject)
    child.once('close', (code) => {
      if (code === 0 || code === CONFLICT_EXIT) resolve(code)
      else reject(new FlockError(`flock(1) failed (exit ${code ?? 'by signal'}): ${stderr.trim()}`))
    })
  })
}

/** Takes an exclusive lock on an open file without waiting: false when another holds it. */
export async function tryLockExclusive(fd: number): Promise<boolean> {
  for (const file of FLOCK_PATHS) {
    try {
      return (await runFlock(file, fd)) === 0
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
  }
  throw new FlockError('cannot lock: flock(1) (util-linux) was not found in PATH, /usr/bin or /bin')
}

/** fdinfo shows each lock taken through that descriptor: `lock: 1: FLOCK ADVISORY WRITE …`. */
const EXCLUSIVE_FLOCK = /^lock:\s+\d+:\s+FLOCK\s+ADVISORY\s+WRITE\s/m

/**
 * Whether process `pid` holds an exclusive flock on the file at `path` through one of its
 * descriptors. A reused PID cannot pass: the new process has no descriptor of that file; nor can
 * the id of a thread of the holder.
 */
export async function holdsExclusiveLock(pid: number, path: string): Promise<boolean> {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  const target = await stat(path).catch(() => undefined)
  if (!target) return false
  // /proc/<tid> of any thread shows its process's descriptors: only a process's own id counts.
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  if (/^Tgid:\s*(\d+)$/m.exec(status)?.[1] !== String(pid)) return false
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[])
  for (const fd of fds) {
    const st = await stat(`/proc/${pid}/fd/${fd}`).catch(() => undefined)
    if (!st || st.dev !== target.dev || st.ino !== target.ino) continue
    const info = await readFile(`/proc/${pid}/fdinfo/${fd}`, 'utf8').catch(() => '')
    if (EXCLUSIVE_FLOCK.test(info)) return true
  }
  return false
}
