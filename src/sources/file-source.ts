// A manifest directory (or single file) as a source: read at start, re-read shortly after
// file-system events (debounced, so an editor save or a `cp` in chunks is one read), and
// re-listed every checkFrequencyMs so that a missed event changes nothing. Each read produces a
// full snapshot; only a changed snapshot is emitted (the first one always).
import {Stats} from 'node:fs'
import {stat} from 'node:fs/promises'
import {basename, dirname} from 'node:path'
import {readLocation} from '../manifest/read.js'
import type {Clock} from '../util/clock.js'
import {errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import type {ValidationMode} from '../manifest/unknown-fields.js'
import {createSource, type SourceCore} from './source-base.js'
import {DirWatcher} from './dir-watcher.js'
import type {ManifestSource} from './types.js'

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
}

export function createFileSource(opts: FileSourceOptions): ManifestSource {
  // The kubelet trims a trailing '/'; the path is how files and the source are named.
  const path = opts.path.length > 1 ? opts.path.replace(/\/+$/, '') : opts.path
  const name = `file:${path}`
  const debounceMs = opts.debounceMs ?? 50
  const log = opts.logger
  const {source, core} = createSource({
    name,
    kind: 'file',
    nodeName: opts.nodeName,
    validate: opts.validate,
    checkFrequencyMs: opts.checkFrequencyMs,
    logger: log,
    clock: opts.clock,
    failure: 'reading manifests failed',
    read: () => refresh(),
    close: () => {
      debounce?.abort()
      watcher.close()
    },
  })
  const {cache}: SourceCore = core

  let debounce: AbortController | undefined
  let missingWarned = false
  const watcher = new DirWatcher(name, log, opts.checkFrequencyMs, () => schedule())

  const publish = (): void => core.publish()

  async function refresh(): Promise<void> {
    const st = await stat(path).catch((err: unknown) => err)
    if (isMissing(st)) {
      if (!missingWarned) log.warn('path does not exist, ignoring', {source: name})
      missingWarned = true
      watcher.close()
      cache.retainOnly(new Set())
      cache.setSourceIssues([])
      publish()
      return
    }
    if (missingWarned) log.info('path exists now', {source: name})
    missingWarned = false
    if (!(st instanceof Stats)) {
      // Cannot even look at the path (permissions): keep every last good file, report it.
      cache.setSourceIssues([{location: path, document: 0, field: '', message: errorMessage(st)}])
      publish()
      return
    }
    const isDir = st.isDirectory()
    await watcher.watch(isDir ? path : dirname(path), isDir ? undefined : basename(path))
    // A stop that came while the watch was being set up closes it again.
    if (core.stopping.aborted) watcher.close()

    const result = await readLocation({kind: isDir ? 'dir' : 'file', path, arg: path})
    // A directory that cannot be listed says nothing about its files: keep them all.
    const listingFailed = isDir && result.issues.some((i) => i.location === path)
    cache.setSourceIssues(listingFailed ? result.issues.filter((i) => i.location === path) : [])
    const present = new Set<string>()
    let changedAndBroken = false
    for (const blob of result.blobs) {
      present.add(blob.location)
      if (cache.setText(blob.location, blob.text)) changedAndBroken = true
      // Decoding is synchronous: let /healthz and the pod workers in between files.
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
    for (const issue of result.issues) {
      if (issue.location === path && isDir) continue
      present.add(issue.location)
      cache.setReadIssue(issue.location, issue)
    }
    if (!listingFailed) cache.retainOnly(present)
    publish()
    // Maybe caught in the middle of a write: look again once it had time to finish.
    if (changedAndBroken) schedule()
  }

  /** Debounced re-read: every call restarts the wait. */
  function schedule(): void {
    if (core.stopping.aborted) return
    debounce?.abort()
    const mine = new AbortController()
    debounce = mine
    void core.clock.sleep(debounceMs, AbortSignal.any([mine.signal, core.stopping])).then(() => {
      if (mine.signal.aborted || core.stopping.aborted) return
      debounce = undefined
      void core.request()
    })
  }


  return source
}

function isMissing(st: unknown): boolean {
  if (!(st instanceof Error)) return false
  const code = 'code' in st ? String(st.code) : ''
  return code === 'ENOENT' || code === 'ENOTDIR'
}
