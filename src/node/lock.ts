// One kube-node daemon per root dir: <root-dir>/kube-node.lock holds the owner's PID. A lock left
// by a process that is gone (or a zombie, since PID 1 may not reap) is taken over.
import {mkdir, open, readFile, rm} from 'node:fs/promises'
import {join} from 'node:path'
import {KubeNodeError} from '../util/errors.js'

export class LockedError extends KubeNodeError {
  readonly kind = 'Locked'
}

export const LOCK_FILE = 'kube-node.lock'

async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return true
  }
}

export interface Lock {
  path: string
  release(): Promise<void>
}

export async function acquireLock(rootDir: string): Promise<Lock> {
  await mkdir(rootDir, {recursive: true})
  const path = join(rootDir, LOCK_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(path, 'wx', 0o644)
      await fh.writeFile(`${process.pid}\n`)
      await fh.close()
      return {path, release: () => rm(path, {force: true})}
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const pid = Number.parseInt((await readFile(path, 'utf8').catch(() => '')).trim(), 10)
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && (await alive(pid))) {
        throw new LockedError(`another kube-node (pid ${pid}) is already running with root dir ${rootDir}; stop it first or use another --root-dir`)
      }
      await rm(path, {force: true})
    }
  }
  throw new LockedError(`could not take the lock ${path}`)
}
