// A manifest directory (or single file) as a source: read at start, re-read shortly after
// file-system events (debounced, so an editor save or a `cp` in chunks is one read), and
// re-listed every checkFrequencyMs so that a missed event changes nothing. Each read produces a
// full snapshot; only a changed snapshot is emitted (the first one always).
import {basename, dirname} from 'node:path'
import type {HostFs, PathInfo} from '../host/port.js'
import {hostManifestIO, readLocation, type FileStat, type ManifestFs, type ManifestIO} from '../manifest/read.js'
import type {Clock} from '../util/clock.js'
import {errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import type {ValidationMode} from '../manifest/unknown-fields.js'
import {createSource, type SourceCore} from './source-base.js'
import {DirWatcher} from './dir-watcher.js'
import type {ManifestSource} from './types.js'

/**
 * A file's version is trusted only once it is this much older than the look at it: file times
 * move in clock ticks of a few ms, so a write just after a read can leave the same version.
 */
const SETTLED_MS = 2000

/** What a file source needs of the host: reading manifests and watching their directory. */
export type FileSourceFs = ManifestFs & Pick<HostFs, 'watchDir'>

export interface FileSourceOptions {
  path: string
  nodeName: string
  /** Unknown manifest fields: errors (default: the location keeps its last good version), warnings, or ignored. */
  validate?: ValidationMode | undefined
  checkFrequencyMs: number
  logger: Logger
  clock?: Clock
  /** Quiet time after a file-system event before reading (default 50 ms: short, since a half-written file only keeps the last good version). */
  debounceMs?: number
  /** The host the manifests are on. */
  fs: FileSourceFs
}

export function createFileSource(opts: FileSourceOptions): ManifestSource {
  // The kubelet trims a trailing '/'; the path is how files and the source are named.
  const path = opts.path.length > 1 ? opts.path.replace(/\/+$/, '') : opts.path
  const name = `file:${path}`
  const debounceMs = opts.debounceMs ?? 50
  // Set just below, before anything can call it: a source reads only once started.
  let reader: FileReader | undefined
  const {source, core} = createSource({
    name,
    kind: 'file',
    nodeName: opts.nodeName,
    validate: opts.validate,
    checkFrequencyMs: opts.checkFrequencyMs,
    logger: opts.logger,
    clock: opts.clock,
    failure: 'reading manifests failed',
    read: () => reader!.refresh(),
    close: () => reader!.close(),
  })
  reader = new FileReader(path, opts.fs, core, debounceMs, opts.checkFrequencyMs)
  return source
}

/**
 * The steps of one file source: look at the path, watch it, read it into the cache, re-read soon
 * after events. A file whose version (host/port.ts) is the one read before is not read again: the
 * re-read every 20 s of a full node's 110 unchanged manifests was a fifth of an idle `watch`.
 */
class FileReader {
  private debounce: AbortController | undefined
  private missingWarned = false
  private readonly watcher: DirWatcher
  private readonly io: ManifestIO
  /** Per file, the version its cached text was read at, once settled. */
  private readonly versions = new Map<string, string>()
  /** What the read in progress saw of each file it read. */
  private readonly seen = new Map<string, FileStat>()

  constructor(
    private readonly path: string,
    private readonly fs: FileSourceFs,
    private readonly core: SourceCore,
    private readonly debounceMs: number,
    checkFrequencyMs: number,
  ) {
    this.watcher = new DirWatcher(core.name, core.logger, checkFrequencyMs, fs, () => this.schedule())
    this.io = {...hostManifestIO(fs), unchanged: (file, st) => this.unchanged(file, st)}
  }

  close(): void {
    this.debounce?.abort()
    this.watcher.close()
  }

  async refresh(): Promise<void> {
    const {core, path} = this
    const st = await this.fs.stat(path, {follow: true}).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))))
    if (isMissing(st)) return this.missing()
    if (this.missingWarned) core.logger.info('path exists now', {source: core.name})
    this.missingWarned = false
    if (st instanceof Error) {
      // Cannot even look at the path (permissions): keep every last good file, report it.
      core.cache.setSourceIssues([{location: path, document: 0, field: '', message: errorMessage(st)}])
      core.publish()
      return
    }
    await this.readPath(st.type === 'directory')
  }

  /** The path is gone: no pods from it, and one warning until it is back. */
  private missing(): void {
    const {core} = this
    if (!this.missingWarned) core.logger.warn('path does not exist, ignoring', {source: core.name})
    this.missingWarned = true
    this.watcher.close()
    core.cache.retainOnly(new Set())
    core.cache.setSourceIssues([])
    core.publish()
  }

  /** Watches the path, reads it and puts every file's text or problem in the cache. */
  private async readPath(isDir: boolean): Promise<void> {
    const {core, path} = this
    const {cache} = core
    await this.watcher.watch(isDir ? path : dirname(path), isDir ? undefined : basename(path))
    // A stop that came while the watch was being set up closes it again.
    if (core.stopping.aborted) this.watcher.close()

    const result = await readLocation({kind: isDir ? 'dir' : 'file', path, arg: path}, this.io)
    // A directory that cannot be listed says nothing about its files: keep them all.
    const listingFailed = isDir && result.issues.some((i) => i.location === path)
    cache.setSourceIssues(listingFailed ? result.issues.filter((i) => i.location === path) : [])
    const present = new Set<string>()
    let changedAndBroken = false
    for (const blob of result.blobs) {
      present.add(blob.location)
      if (blob.unchanged) continue
      if (cache.setText(blob.location, blob.text)) changedAndBroken = true
      this.remember(blob.location)
      // Decoding is synchronous: let /healthz and the pod workers in between files.
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
    for (const issue of result.issues) {
      if (issue.location === path && isDir) continue
      present.add(issue.location)
      cache.setReadIssue(issue.location, issue)
    }
    if (!listingFailed) cache.retainOnly(present)
    for (const file of this.versions.keys()) if (!cache.holds(file)) this.versions.delete(file)
    this.seen.clear()
    core.publish()
    // Maybe caught in the middle of a write: look again once it had time to finish.
    if (changedAndBroken) this.schedule()
  }

  private unchanged(file: string, st: FileStat): boolean {
    if (st.version !== undefined && this.versions.get(file) === st.version && this.core.cache.holds(file)) return true
    this.seen.set(file, st)
    return false
  }

  /** Keeps the version of a file just read, when it is old enough to be trusted. */
  private remember(file: string): void {
    const st = this.seen.get(file)
    if (st?.version !== undefined && st.changedAtMs !== undefined && this.core.clock.now() - st.changedAtMs > SETTLED_MS) this.versions.set(file, st.version)
    else this.versions.delete(file)
  }

  /** Debounced re-read: every call restarts the wait. */
  private schedule(): void {
    const {core} = this
    if (core.stopping.aborted) return
    this.debounce?.abort()
    const mine = new AbortController()
    this.debounce = mine
    void core.clock.sleep(this.debounceMs, AbortSignal.any([mine.signal, core.stopping])).then(() => {
      if (mine.signal.aborted || core.stopping.aborted) return
      this.debounce = undefined
      void core.request()
    })
  }
}

/** Nothing at the path (HostFs says undefined), or a parent that is not a directory. */
function isMissing(st: PathInfo | Error | undefined): st is undefined | Error {
  if (st === undefined) return true
  if (!(st instanceof Error)) return false
  const code = 'code' in st ? String(st.code) : ''
  return code === 'ENOENT' || code === 'ENOTDIR'
}
