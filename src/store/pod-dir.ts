// A pod's private directory under --root-dir, made before anything is written for the pod, and
// rid of the temporary files of record writes that a killed process left there.
import {podDataDir, podsDir} from '../kuberuntime/naming.js'
import type {HostFs} from '../host/port.js'

/** A record write's temporary file: `.<name>.<hex or pid>.tmp` (json-file.ts, host/record-file.ts). */
const TEMPORARY_FILE = /^\.[\w.-]+\.[0-9a-f]+\.tmp$/
/**
 * No record write takes this long, so a temporary file not written for longer was left by a
 * process killed in the middle of a write (kill -9, an OOM kill, a power cut). A slower writer
 * whose file is removed only sees its rename fail, and writes again.
 */
export const STALE_TEMPORARY_MS = 10 * 60_000

/**
 * Removes the stale temporary files in a pod's directory. Best effort: a file that cannot be
 * looked at or removed stays for the next look, and nothing else is ever touched. `now` is
 * wall-clock time, as the files' times are (not a node clock that tests may fake).
 */
async function removeStaleTemporaries(fs: HostFs, dir: string, now: number): Promise<void> {
  for (const name of await fs.list(dir).catch(() => [])) {
    if (!TEMPORARY_FILE.test(name)) continue
    const path = `${dir}/${name}`
    const info = await fs.stat(path).catch(() => undefined)
    if (info?.type !== 'file' || info.modifiedAtMs === undefined || now - info.modifiedAtMs < STALE_TEMPORARY_MS) continue
    await fs.unlink(path).catch(() => undefined)
  }
}

/**
 * The root dir (0750 when kube-node creates it), `<root>/pods` and `<root>/pods/<uid>` (always
 * 0750), made before anything is written below them, so no file of a pod (secrets, pod.json) is
 * ever reachable by other users.
 */
export async function ensurePodDir(fs: HostFs, rootDir: string, uid: string): Promise<string> {
  return (await makePodDir(fs, rootDir, uid)).dir
}

/** ensurePodDir, and whether it made the pod's directory just now. */
async function makePodDir(fs: HostFs, rootDir: string, uid: string): Promise<{dir: string; made: boolean}> {
  await fs.mkdirPrivate(rootDir)
  await fs.mkdirPrivate(podsDir(rootDir), {tighten: true})
  const dir = podDataDir(rootDir, uid)
  return {dir, made: await fs.mkdirPrivate(dir, {tighten: true})}
}

/**
 * The pod directories this process has made, shared by everything that writes into them (the
 * executor before a pod's sandbox, the status and event records after). The executor makes and
 * tightens a pod's directory before each new sandbox, so no secret lands in a loose one; a record
 * write looks only at its pod's first write in the process, and again only when a write finds the
 * directory gone. At 110 pods that saves two of every three looks, each a round trip through the
 * thread pool that a loaded machine makes the event loop wait for. The first look of a process
 * at a pod's directory also removes what a killed process left there half written.
 */
export class PodDirs {
  private readonly made = new Set<string>()
  private readonly swept = new Set<string>()

  constructor(
    private readonly fs: HostFs,
    private readonly rootDir: string,
  ) {}

  /** Makes (or tightens) the pod's directory now, whatever this process made before. */
  async ensure(uid: string): Promise<string> {
    const {dir, made} = await makePodDir(this.fs, this.rootDir, uid)
    this.made.add(uid)
    // A directory made just now holds nothing to remove.
    if (!this.swept.has(uid)) {
      this.swept.add(uid)
      if (!made) await removeStaleTemporaries(this.fs, dir, Date.now())
    }
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
    this.swept.delete(uid)
  }
}
