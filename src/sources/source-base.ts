// The shape every manifest source shares, written once: reads that never overlap, a periodic
// re-read that a stop ends at once, a snapshot emitted only when it changed (the first always),
// and problems logged once per location. A source supplies its read and, when it differs, how
// its snapshot reports problems; a new source is one file.
import {realClock, type Clock} from '../util/clock.js'
import {errorMessage, InternalError, type FieldIssue} from '../util/errors.js'
import {canonicalJson} from '../util/hash.js'
import type {Logger} from '../util/logger.js'
import {IssueLog} from './issue-log.js'
import type {ValidationMode} from '../manifest/unknown-fields.js'
import {ManifestCache, type CacheSnapshot} from './manifest-cache.js'
import {repeat, serialRunner} from './runner.js'
import type {ManifestSource, SourceSnapshot} from './types.js'

/** What a source's own code works with. */
export interface SourceCore {
  readonly name: string
  readonly cache: ManifestCache
  readonly logger: Logger
  readonly clock: Clock
  /** Aborted once stop() was called. */
  readonly stopping: AbortSignal
  /** Emits the cache's snapshot unless it is the one emitted last. */
  publish(): void
  /** A read now, or once more after the running one; resolves when the reads are done. */
  request(): Promise<void>
}

export interface SourceSpec {
  /** `file:<path>` or `http:<url without secrets>`. */
  name: string
  kind: 'file' | 'http'
  nodeName: string
  validate?: ValidationMode | undefined
  checkFrequencyMs: number
  logger: Logger
  clock?: Clock | undefined
  /** One read into core.cache, then core.publish(). */
  read(core: SourceCore): Promise<void>
  /** The snapshot's problems and completeness; default: the cache's. */
  report?(snap: CacheSnapshot): {issues: FieldIssue[]; complete: boolean}
  /** What the log says when a read throws. */
  failure: string
  /** Makes an error text fit for the log (HTTP removes credentials). */
  scrub?(text: string): string
  /** Releases what the source holds (watchers), at stop. */
  close?(): void
}

export function createSource(spec: SourceSpec): {source: ManifestSource; core: SourceCore} {
  const stopping = new AbortController()
  const clock = spec.clock ?? realClock
  const cache = new ManifestCache(spec.nodeName, spec.kind, spec.validate)
  const issueLog = new IssueLog(spec.name, spec.logger)
  const warningLog = new IssueLog(spec.name, spec.logger, 'unknown field in manifest')
  const scrub = spec.scrub ?? ((t: string) => t)
  let emit: ((s: SourceSnapshot) => void) | undefined
  let lastEmitted: string | undefined
  let loop: Promise<void> | undefined

  const runner = serialRunner(() => spec.read(core).catch((err: unknown) => spec.logger.error(spec.failure, {source: spec.name, err: scrub(errorMessage(err))})))
  const core: SourceCore = {
    name: spec.name,
    cache,
    logger: spec.logger,
    clock,
    stopping: stopping.signal,
    publish() {
      if (stopping.signal.aborted || !emit) return
      const snap = cache.snapshot()
      const {issues, complete} = spec.report?.(snap) ?? {issues: snap.issues, complete: snap.complete}
      issueLog.report(issues, (location) => cache.hasGood(location))
      warningLog.report(snap.warnings, () => false)
      const snapshot: SourceSnapshot = {source: spec.name, pods: snap.pods, issues, complete, configMaps: snap.configMaps, secrets: snap.secrets}
      const key = canonicalJson(snapshot)
      if (key === lastEmitted) return
      lastEmitted = key
      emit(snapshot)
    },
    request: () => runner.request(),
  }
  const source: ManifestSource = {
    name: spec.name,
    start(onSnapshot) {
      if (emit) throw new InternalError(`source ${spec.name} started twice`)
      emit = onSnapshot
      loop = repeat(spec.checkFrequencyMs, clock, stopping.signal, () => runner.request())
    },
    async stop() {
      stopping.abort()
      spec.close?.()
      await loop
      await runner.idle()
    },
  }
  return {source, core}
}
