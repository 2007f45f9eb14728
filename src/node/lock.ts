// One kube-node daemon per root dir. The lock is a Linux abstract unix socket named after the
// root dir's real path: the kernel lets exactly one process bind it and releases it the moment
// that process dies, however it dies, so a stale or reused PID can never block start-up and two
// concurrent starts can never both win. (A PID file alone cannot give both; flock(2) needs a
// native addon; a mkdir lock goes stale on kill -9.) The limit: abstract sockets belong to a
// network namespace, so two daemons in different network namespaces sharing one root dir are not
// kept apart. <root-dir>/kube-node.lock still holds the owner's PID, for people and tools only.
import {createHash} from 'node:crypto'
import {createServer, type Server} from 'node:net'
import {readFile, realpath, rename, rm, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {KubeNodeError} from '../util/errors.js'
import {nodeHostFs} from '../host/node-host-fs.js'

export class LockedError extends KubeNodeError {
  readonly kind = 'Locked'
}

export const LOCK_FILE = 'kube-node.lock'

export interface Lock {
  path: string
  release(): Promise<void>
}

/** The abstract socket name of a root dir (Linux: a leading NUL keeps it off the file system). */
export function lockName(realRootDir: string): string {
  return `\0kube-node-lock-${createHash('sha256').update(realRootDir).digest('hex').slice(0, 40)}`
}

export async function acquireLock(rootDir: string): Promise<Lock> {
  await nodeHostFs.mkdirPrivate(rootDir)
  const real = await realpath(rootDir)
  const path = join(rootDir, LOCK_FILE)
  const server = createServer((socket) => socket.destroy())
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen({path: lockName(real), exclusive: true}, () => resolve())
    })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err
    const holder = (await readFile(path, 'utf8').catch(() => '')).trim()
    const who = /^\d+$/.test(holder) ? `pid ${holder}` : 'another process'
    throw new LockedError(`another kube-node (${who}) is already running with root dir ${rootDir}; stop it first or use another --root-dir`)
  }
  server.unref()
  // Information only, written whole (temp + rename) so a reader never sees it empty.
  const tmp = `${path}.${process.pid}.tmp`
  await writeFile(tmp, `${process.pid}\n`, {mode: 0o644})
  await rename(tmp, path)
  return {path, release: () => release(server, path)}
}

async function release(server: Server, path: string): Promise<void> {
  // The PID file goes first, while the lock is still held: no newer owner's file is removed.
  if ((await readFile(path, 'utf8').catch(() => '')).trim() === String(process.pid)) await rm(path, {force: true})
  await new Promise<void>((resolve) => server.close(() => resolve()))
}
