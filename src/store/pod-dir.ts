// A pod's private directory under --root-dir, made before anything is written for the pod.
import {podDataDir, podsDir} from '../kuberuntime/naming.js'
import type {HostFs} from '../host/port.js'

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

/**
 * Writes of one kind of record into pod directories. A store writes a pod's record up to once a
 * second, and the directory nearly always exists: it is made (and tightened) at the first write
 * for the pod in this process, and again only when a write finds it gone. At 110 pods that is
 * thousands of looks fewer, each a round trip through the thread pool that a loaded machine makes
 * the event loop wait for.
 */
export class PodDirWrites {
  private readonly made = new Set<string>()

  constructor(
    private readonly fs: HostFs,
    private readonly rootDir: string,
  ) {}

  async write(uid: string, write: () => Promise<void>): Promise<void> {
    if (!this.made.has(uid)) {
      await ensurePodDir(this.fs, this.rootDir, uid)
      this.made.add(uid)
    }
    try {
      await write()
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
      // Removed since (another process's `down`): made again, as the first write made it.
      await ensurePodDir(this.fs, this.rootDir, uid)
      await write()
    }
  }

  /** The pod's record goes: a later write checks its directory again first. */
  forget(uid: string): void {
    this.made.delete(uid)
  }
}
