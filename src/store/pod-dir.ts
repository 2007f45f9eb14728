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
 * The pod directories this process has made, shared by everything that writes into them (the
 * executor before a pod's sandbox, the status and event records after). The executor makes and
 * tightens a pod's directory before each new sandbox, so no secret lands in a loose one; a record
 * write looks only at its pod's first write in the process, and again only when a write finds the
 * directory gone. At 110 pods that saves two of every three looks, each a round trip through the
 * thread pool that a loaded machine makes the event loop wait for.
 */
export class PodDirs {
  private readonly made = new Set<string>()

  constructor(
    private readonly fs: HostFs,
    private readonly rootDir: string,
  ) {}

  /** Makes (or tightens) the pod's directory now, whatever this process made before. */
  async ensure(uid: string): Promise<string> {
    const dir = await ensurePodDir(this.fs, this.rootDir, uid)
    this.made.add(uid)
    return dir
  }

  /** Runs `write` into the pod's directory, made first if this process has not made it yet. */
  async write(uid: string, write: () => Promise<void>): Promise<void> {
    if (!this.made.has(uid)) await this.ensure(uid)
    try {
      await write()
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
      // Removed since (another process's `down`): made again, as the first write made it.
      await this.ensure(uid)
      await write()
    }
  }

  /** The pod's records go: a later write checks its directory again first. */
  forget(uid: string): void {
    this.made.delete(uid)
  }
}
