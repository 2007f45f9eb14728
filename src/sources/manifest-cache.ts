// The last good version of every manifest location of one source, and the snapshot built from
// them. State, but no I/O and no clock: the file and HTTP sources feed it what they read.
//
// Per location: a digest of the text last read (unchanged text is not decoded again), the pods of the last
// text that decoded and validated ("last good"), and the current problems. A location that is
// broken now keeps its last good pods in the snapshot, so a half-written file or a typo never
// removes a running pod; a location that was never good contributes only its problems.
import {createHash} from 'node:crypto'
import type {ConfigMap, PodSource, Secret, StaticPod} from '../api/types.js'
import {buildManifests} from '../manifest/build.js'
import type {ValidationMode} from '../manifest/unknown-fields.js'
import type {FieldIssue} from '../util/errors.js'
import {startAfterIssues} from '../manifest/start-after.js'
import {addCost, NO_COST, type SourceCost} from '../manifest/source-cost.js'

interface Entry {
  /** A digest of the text last read, not the text: a directory's 64 MiB is not kept for a comparison. */
  digest?: string
  good?: StaticPod[]
  goodConfigMaps?: ConfigMap[]
  goodSecrets?: Secret[]
  decodeIssues: FieldIssue[]
  /** Unknown fields of the current text under `validate: warn`. */
  warnings: FieldIssue[]
  readIssue?: FieldIssue
  /** What the last good version costs the source (source-cost.ts). */
  cost: SourceCost
  /** Refused for want of room in the source: what the other locations held then. */
  refusedBeside?: SourceCost
}

export interface CacheSnapshot {
  pods: StaticPod[]
  issues: FieldIssue[]
  warnings: FieldIssue[]
  complete: boolean
  configMaps: ConfigMap[]
  secrets: Secret[]
}

/** Some location was removed or shrank since: a file refused for want of room may fit now. */
function hasMoreRoom(now: SourceCost, then: SourceCost): boolean {
  return now.doubleQuoted < then.doubleQuoted || now.objects < then.objects
}

export class ManifestCache {
  private readonly entries = new Map<string, Entry>()
  private sourceIssues: FieldIssue[] = []

  constructor(
    private readonly nodeName: string,
    private readonly kind: PodSource['kind'],
    private readonly validate: ValidationMode = 'strict',
  ) {}

  /**
   * Records the text read at `location`; decodes it only when it changed. Returns true when the
   * text changed and does not decode: it may be half written, so the caller looks again soon.
   */
  setText(location: string, text: string): boolean {
    const entry = this.entry(location)
    delete entry.readIssue
    const others = this.spentBeside(location)
    const digest = createHash('sha256').update(text).digest('base64')
    if (entry.digest === digest && !(entry.refusedBeside && hasMoreRoom(others, entry.refusedBeside))) return false
    entry.digest = digest
    const result =
      text.trim() === ''
        ? {pods: [], configMaps: [], secrets: [], issues: [{location, document: 0, field: '', message: 'is empty'}], warnings: [], cost: NO_COST, sourceFull: false}
        : buildManifests([{location, source: this.kind, text}], {nodeName: this.nodeName, validate: this.validate, spent: others})
    entry.decodeIssues = result.issues
    entry.warnings = result.warnings
    if (result.sourceFull) entry.refusedBeside = others
    else delete entry.refusedBeside
    if (result.issues.length === 0) {
      entry.good = result.pods
      entry.goodConfigMaps = result.configMaps
      entry.goodSecrets = result.secrets
      entry.cost = result.cost
    }
    return result.issues.length > 0 && !result.sourceFull
  }

  /** The location exists but could not be read (permissions, size, encoding, transport). */
  setReadIssue(location: string, issue: FieldIssue): void {
    this.entry(location).readIssue = issue
  }

  /** Forgets every location not in `present` (removed files). */
  retainOnly(present: ReadonlySet<string>): void {
    for (const location of [...this.entries.keys()]) if (!present.has(location)) this.entries.delete(location)
  }

  /** Problems of the source as a whole (a directory that cannot be listed). */
  setSourceIssues(issues: FieldIssue[]): void {
    this.sourceIssues = issues
  }

  /**
   * The text last read at `location` can stand for the file when it has not changed: it was read
   * without a problem and not refused for want of room (room that may have been freed since).
   */
  holds(location: string): boolean {
    const entry = this.entries.get(location)
    return entry?.digest !== undefined && entry.readIssue === undefined && entry.refusedBeside === undefined
  }

  hasGood(location: string): boolean {
    return this.entries.get(location)?.good !== undefined
  }

  /**
   * Pods of every location in location order. Two locations defining the same namespace/name:
   * the first wins and the other's pod is left out with an issue naming both.
   */
  snapshot(): CacheSnapshot {
    const pods: StaticPod[] = []
    const configMaps: ConfigMap[] = []
    const secrets: Secret[] = []
    const issues: FieldIssue[] = [...this.sourceIssues]
    const warnings: FieldIssue[] = []
    const duplicates: FieldIssue[] = []
    const owner = new Map<string, StaticPod>()
    let complete = this.sourceIssues.length === 0
    for (const location of [...this.entries.keys()].sort()) {
      const entry = this.entries.get(location)!
      if (entry.readIssue) issues.push(entry.readIssue)
      issues.push(...entry.decodeIssues)
      warnings.push(...entry.warnings)
      if (entry.good === undefined) {
        complete = false
        continue
      }
      configMaps.push(...(entry.goodConfigMaps ?? []))
      secrets.push(...(entry.goodSecrets ?? []))
      for (const pod of entry.good) {
        const key = `${pod.pod.metadata.namespace}/${pod.manifestName}`
        const first = owner.get(key)
        if (first) {
          duplicates.push({
            location: pod.source.location,
            document: pod.source.document,
            field: 'metadata.name',
            message: `duplicate pod "${key}": also defined in ${first.source.location}, document ${first.source.document}; that one is used`,
          })
          continue
        }
        owner.set(key, pod)
        pods.push(pod)
      }
    }
    // A start-after naming an unknown pod or forming a cycle is reported; the pod stays (a running
    // one keeps running, a new one waits), since a file being edited may fix it in a moment.
    const order = startAfterIssues(pods.map((p) => ({manifestName: p.manifestName, annotations: p.pod.metadata.annotations, source: p.source})))
    return {pods, issues: [...issues, ...duplicates, ...order], warnings, complete, configMaps, secrets}
  }

  /** What every other location's last good version costs: the source's limits count them all. */
  private spentBeside(location: string): SourceCost {
    let spent = NO_COST
    for (const [other, entry] of this.entries) if (other !== location) spent = addCost(spent, entry.cost)
    return spent
  }

  private entry(location: string): Entry {
    let entry = this.entries.get(location)
    if (!entry) {
      entry = {decodeIssues: [], warnings: [], cost: NO_COST}
      this.entries.set(location, entry)
    }
    return entry
  }
}
