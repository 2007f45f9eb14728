// The few host file-system operations syncing a pod needs (log and volume directories), behind
// an interface so the core can be tested without touching real paths.
import {chmod, lstat, mkdir, rm, stat} from 'node:fs/promises'
import {posix} from 'node:path'
import {podDataDir, podsDir} from '../kuberuntime/naming.js'

/** kube-node's root dir, `pods/` and each pod's dir: owner and group only, as the kubelet's. */
export const PRIVATE_DIR_MODE = 0o750

export interface HostFs {
  /** Creates a directory and its parents; no error if it exists. */
  mkdirp(path: string, mode?: number): Promise<void>
  /** Removes a file or directory tree; no error if it is missing. */
  removeAll(path: string): Promise<void>
  /**
   * Makes `path` a directory of mode 0750 (parents as mkdirp); an existing one is tightened only
   * with `tighten` (kube-node's own `pods/` and pod dirs, never a root dir a user pointed at, which
   * could be `/`); refuses a symlink or a non-directory in its place.
   */
  mkdirPrivate(path: string, opts?: {tighten?: boolean}): Promise<void>
}

export const nodeHostFs: HostFs = {
  async mkdirp(path, mode = PRIVATE_DIR_MODE) {
    await mkdir(path, {recursive: true, mode})
  },
  async removeAll(path) {
    await rm(path, {recursive: true, force: true})
  },
  async mkdirPrivate(path, opts = {}) {
    await mkdir(posix.dirname(path), {recursive: true, mode: 0o755})
    await mkdir(path, {mode: PRIVATE_DIR_MODE}).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err
    })
    // A root dir may be a link a user made; kube-node's own dirs below it may not.
    const st = opts.tighten === true ? await lstat(path) : await stat(path)
    if (!st.isDirectory()) throw new Error(`${path} is not a directory (a symlink or a file is in its place)`)
    if (opts.tighten === true && (st.mode & 0o7777) !== PRIVATE_DIR_MODE) await chmod(path, PRIVATE_DIR_MODE)
  },
}

/**
 * The root dir (0750 when kube-node creates it), `<root>/pods` and `<root>/pods/<uid>` (always
 * 0750), made before anything is written below them, so no file of a pod (secrets, pod.json) is
 * ever reachable by other users.
 */
export async function ensurePodDir(fs: HostFs, rootDir: string, uid: string): Promise<string> {
  await fs.mkdirPrivate(rootDir)
  await fs.mkdirPrivate(podsDir(rootDir), {tighten: true})
  const dir = podDataDir(rootDir, uid)
  await fs.mkdirPrivate(dir, {tighten: true})
  return dir
}
