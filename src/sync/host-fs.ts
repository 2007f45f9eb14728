// The few host file-system operations syncing a pod needs (log and volume directories), behind
// an interface so the core can be tested without touching real paths.
import {mkdir, rm} from 'node:fs/promises'

export interface HostFs {
  /** Creates a directory and its parents; no error if it exists. */
  mkdirp(path: string, mode?: number): Promise<void>
  /** Removes a file or directory tree; no error if it is missing. */
  removeAll(path: string): Promise<void>
}

export const nodeHostFs: HostFs = {
  async mkdirp(path, mode = 0o755) {
    await mkdir(path, {recursive: true, mode})
  },
  async removeAll(path) {
    await rm(path, {recursive: true, force: true})
  },
}
