// Under `watch`: when a pod's manifest stops validating (its last good version keeps running),
// a Warning event naming file, document and field, and a record readers show; when it validates
// again, a Normal event and the record goes. Called after every source snapshot.
import type {StaticPod} from '../../api/types.js'
import type {EventSink} from '../../api/events.js'
import type {StatusWriter} from '../../api/status-record.js'
import {podObject} from '../../pod/event-object.js'
import {MANIFEST_ERROR_REASON, manifestErrorMessage, manifestErrorsByPod} from '../../status/manifest-error.js'
import type {Clock} from '../../util/clock.js'
import {errorMessage, type FieldIssue} from '../../util/errors.js'
import type {Logger} from '../../util/logger.js'
import {serialQueue} from '../../util/serial-queue.js'
import {removeManifestError, writeManifestError} from '../pods/manifest-error-file.js'

/** Reason of the Normal event once a manifest validates again. */
export const MANIFEST_VALID_REASON = 'ManifestValid'

export interface ManifestErrorDeps {
  rootDir: string
  events: EventSink
  clock: Clock
  logger: Logger
  writer: StatusWriter
}

export class ManifestErrors {
  /** uid → the problems last reported. */
  private reported = new Map<string, string>()
  private readonly queue = serialQueue()

  constructor(private readonly deps: ManifestErrorDeps) {}

  update(pods: readonly StaticPod[], issues: readonly FieldIssue[]): void {
    const now = manifestErrorsByPod(pods, issues)
    const alive = new Set(pods.map((sp) => sp.pod.metadata.uid))
    const {events, rootDir, clock, writer} = this.deps
    for (const [uid, {sp, message}] of now) {
      if (this.reported.get(uid) === message) continue
      this.reported.set(uid, message)
      events.emit(podObject(sp.pod), 'Warning', MANIFEST_ERROR_REASON, manifestErrorMessage(message))
      this.write(() => writeManifestError(rootDir, uid, {message, at: clock.now(), writer}))
    }
    for (const uid of [...this.reported.keys()]) {
      if (now.has(uid)) continue
      this.reported.delete(uid)
      // A pod whose manifest is gone is removed with its directory; one still desired is fixed.
      if (!alive.has(uid)) continue
      const sp = pods.find((p) => p.pod.metadata.uid === uid)
      if (sp) events.emit(podObject(sp.pod), 'Normal', MANIFEST_VALID_REASON, `the manifest is valid again: ${sp.source.location}`)
      this.write(() => removeManifestError(rootDir, uid))
    }
  }

  /** Writes in order (a quick fix must not be overtaken by the error's write). */
  private write(op: () => Promise<void>): void {
    void this.queue(op).catch((err: unknown) => this.deps.logger.warn('Could not record a manifest error', {error: errorMessage(err)}))
  }

  flush(): Promise<void> {
    return this.queue(async () => {})
  }
}
