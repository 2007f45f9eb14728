// File-system events for the file source: one fs.watch on the manifest directory (or the
// directory of a single manifest file), set up again when the directory is replaced (a new
// inode), and events on names that can never be manifests ignored. Events only hasten a read:
// the periodic re-list is what guarantees that nothing is missed. The watch and the look at the
// inode go through the host port.
import type {DirWatch, HostFs} from '../host/port.js'
import {errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'

const MANIFEST_NAME = /\.(ya?ml|json)$/i

export class DirWatcher {
  private watched: {target: string; ino: number; watcher: DirWatch} | undefined
  private watchError: string | undefined

  constructor(
    private readonly source: string,
    private readonly log: Logger,
    private readonly relistMs: number,
    private readonly fs: Pick<HostFs, 'stat' | 'watchDir'>,
    private readonly onEvent: () => void,
  ) {}

  /** Watches `target` (only the name `onlyName` in it, when given) unless it already does. */
  async watch(target: string, onlyName: string | undefined): Promise<void> {
    // A directory removed and created again is a new inode: the old watch sees nothing.
    const ino = await this.fs.stat(target, {follow: true}).then((s) => (s === undefined ? -1 : (s.ino ?? 0)), () => -1)
    if (this.watched && this.watched.target === target && this.watched.ino === ino) return
    this.close()
    if (ino < 0) return
    try {
      const watcher: DirWatch = this.fs.watchDir(
        target,
        (fileName) => {
          if (fileName !== undefined && !relevant(fileName, onlyName)) return
          this.onEvent()
        },
        () => {
          // The watched directory went away; the next re-list sets up a new watch.
          if (this.watched?.watcher === watcher) this.close()
          this.onEvent()
        },
      )
      this.watched = {target, ino, watcher}
      if (this.watchError !== undefined) this.log.info('watching for changes again', {source: this.source})
      this.watchError = undefined
    } catch (err) {
      const text = errorMessage(err)
      if (text !== this.watchError) {
        this.log.warn(`cannot watch for changes, relying on the re-list every ${this.relistMs / 1000}s`, {source: this.source, err: text})
      }
      this.watchError = text
    }
  }

  close(): void {
    this.watched?.watcher.close()
    this.watched = undefined
  }
}

/** Events on names that can never be manifests (swap files, backups, dotfiles) are ignored. */
function relevant(file: string, onlyName: string | undefined): boolean {
  if (onlyName !== undefined) return file === onlyName
  return !file.startsWith('.') && MANIFEST_NAME.test(file)
}
