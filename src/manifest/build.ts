// From read manifests to static pods: decode → validate → (only if all is valid) defaults,
// with duplicate namespace/name detection across every location. Pure; load.ts adds the reading.
import type {ConfigMap, Secret, StaticPod} from '../api/types.js'
import type {FieldIssue} from '../util/errors.js'
import {isObject} from '../util/check.js'
import {decodeManifest, type DecodedObject} from './decode.js'
import {applyDefaults} from './defaults.js'
import type {ManifestBlob} from './read.js'
import {validateConfigObject} from './validate-config.js'
import {validatePod} from './validate.js'
import {unknownFields, type ValidationMode} from './unknown-fields.js'
import {describeRef, issueAt, type DocumentRef} from './where.js'
import {withoutNulls} from './without-nulls.js'
import {addCost, NO_COST, type SourceCost} from './source-cost.js'

export interface ManifestSet {
  pods: StaticPod[]
  /** ConfigMaps and Secrets defined next to the pods; their namespace defaults to `default`. */
  configMaps: ConfigMap[]
  secrets: Secret[]
}

export interface BuildResult extends ManifestSet {
  /** Every problem found; when non-empty the sets are empty (all or nothing). */
  issues: FieldIssue[]
  /** Unknown fields under `--validate=warn`: reported, not refused. */
  warnings: FieldIssue[]
  /** What the objects decoded cost their sources, all together. */
  cost: SourceCost
  /** Some location was refused only because its source had no room left. */
  sourceFull?: boolean
  /** The locations that yielded at least one object (a Pod, ConfigMap or Secret), valid or not. */
  objectLocations: ReadonlySet<string>
}

export interface BuildOptions {
  nodeName: string
  /** Unknown fields: errors (default), warnings, or ignored. */
  validate?: ValidationMode | undefined
  /** What the source of these blobs holds already elsewhere (a watched directory's other files). */
  spent?: SourceCost
}

export function buildManifests(blobs: readonly ManifestBlob[], opts: BuildOptions): BuildResult {
  const issues: FieldIssue[] = []
  const warnings: FieldIssue[] = []
  const mode = opts.validate ?? 'strict'
  const decoded: Array<DecodedObject & {source: ManifestBlob['source']}> = []
  // The files of one directory are charged to it together; any other location is a source of its own.
  const spent = new Map<string, SourceCost>()
  let cost = NO_COST
  let sourceFull = false
  for (const blob of blobs) {
    const key = blob.directory ?? blob.location
    const result = decodeManifest(blob.location, blob.text, spent.get(key) ?? opts.spent ?? NO_COST)
    spent.set(key, addCost(spent.get(key) ?? opts.spent ?? NO_COST, result.cost))
    cost = addCost(cost, result.cost)
    if (result.sourceFull) sourceFull = true
    for (const issue of result.issues) issues.push(issue) // not push(...): a 10 MiB file can hold a million issues
    for (const obj of result.objects) decoded.push({...obj, source: blob.source})
  }
  const objectLocations = new Set(decoded.map((obj) => obj.ref.location))
  for (const obj of decoded) {
    const found = obj.kind === 'Pod' ? validatePod(obj.object, obj.ref, {nodeName: opts.nodeName}) : validateConfigObject(obj.kind, obj.object, obj.ref)
    for (const issue of found) issues.push(issue)
    if (mode === 'ignore') continue
    // A field validation already refused (one of a newer API, with its reason) is not unknown too.
    const refused = new Set(found.map((i) => i.field))
    const unknown = unknownFields(obj.kind, obj.object).filter((u) => !refused.has(u.field))
    for (const u of unknown) (mode === 'strict' ? issues : warnings).push(issueAt(obj.ref, u.field, u.message))
  }
  for (const issue of findDuplicates(decoded)) issues.push(issue)
  if (issues.length > 0) return {pods: [], configMaps: [], secrets: [], issues: capIssues(issues), warnings: capIssues(warnings), cost: NO_COST, sourceFull, objectLocations}

  const set: BuildResult = {pods: [], configMaps: [], secrets: [], issues, warnings: capIssues(warnings), cost, objectLocations}
  for (const obj of decoded) {
    if (obj.kind === 'Pod') {
      const source = {kind: obj.source, location: obj.ref.location, document: obj.ref.document}
      set.pods.push(applyDefaults(obj.object, {nodeName: opts.nodeName, source}))
    } else {
      const copy = withoutNulls(obj.object) as ConfigMap & Secret
      copy.metadata = {...copy.metadata, namespace: copy.metadata?.namespace || 'default'}
      if (obj.kind === 'ConfigMap') set.configMaps.push(copy)
      else set.secrets.push(copy)
    }
  }
  return set
}

/** Enough problems to fix first; a summary stands for the rest. */
export const MAX_ISSUES = 100

function capIssues(issues: FieldIssue[]): FieldIssue[] {
  if (issues.length <= MAX_ISSUES) return issues
  const last = issues[MAX_ISSUES - 1]!
  return [...issues.slice(0, MAX_ISSUES - 1), {location: last.location, document: last.document, field: '', message: `and ${issues.length - MAX_ISSUES + 1} more problems`}]
}

/** Two objects of the same kind with the same namespace/name: the later one is reported. */
function findDuplicates(objects: readonly DecodedObject[]): FieldIssue[] {
  const issues: FieldIssue[] = []
  const first = new Map<string, DocumentRef>()
  for (const obj of objects) {
    const meta = isObject(obj.object['metadata']) ? obj.object['metadata'] : {}
    const name = meta['name']
    if (typeof name !== 'string' || name === '') continue
    const ns = typeof meta['namespace'] === 'string' && meta['namespace'] !== '' ? meta['namespace'] : 'default'
    const key = `${obj.kind}\u0000${ns}/${name}`
    const earlier = first.get(key)
    if (earlier) {
      issues.push(issueAt(obj.ref, 'metadata.name', `duplicate ${obj.kind === 'Pod' ? 'pod' : obj.kind} "${ns}/${name}": also defined in ${describeRef(earlier)}`))
    } else {
      first.set(key, obj.ref)
    }
  }
  return issues
}
