// The manifest pipeline in one call, for the commands: read every location, then build. Any
// problem anywhere → one InvalidInputError carrying every issue, and nothing else happens. A
// location that yields no object at all is a problem too (an empty file given to `run` is a
// mistake, not a request to do nothing), and so is a whole input with no Pod (kubectl's "no
// objects passed"); a location of only ConfigMaps and Secrets beside another's pods is fine.
import {errorMessage, InvalidInputError, type FieldIssue} from '../util/errors.js'
import {podHostname} from '../kuberuntime/sandbox-config.js'
import {buildManifests, type ManifestSet} from './build.js'
import {readManifestGroups, type BlobGroup, type ManifestIO} from './read.js'
import type {StaticPod} from '../api/types.js'
import type {ValidationMode} from './unknown-fields.js'
import {startAfterIssues} from './start-after.js'

export type {ManifestSet} from './build.js'

export interface LoadOptions {
  nodeName: string
  /** For setHostnameAsFQDN: the FQDN must fit 64 characters (default cluster.local). */
  clusterDomain?: string
  io?: ManifestIO
  /** Unknown fields: errors (default), warnings, or ignored. */
  validate?: ValidationMode | undefined
  /** Each unknown field under `validate: warn`, before anything runs. */
  onWarning?: ((issue: FieldIssue) => void) | undefined
  /** The most pods the node runs (kubelet maxPods): more in the manifests is invalid input. */
  maxPods?: number | undefined
}

export async function loadStaticPods(locations: readonly string[], opts: LoadOptions): Promise<ManifestSet> {
  const groups = await readManifestGroups(locations, opts.io)
  const {issues, warnings, objectLocations, ...set} = buildManifests(groups.flatMap((g) => g.blobs), {nodeName: opts.nodeName, validate: opts.validate})
  if (issues.length > 0) throw new InvalidInputError(issues)
  for (const w of warnings) opts.onWarning?.(w)
  // What the sandbox would refuse for a reason written in the manifest is refused here, by the
  // same function, so `validate` and `run` agree.
  const hostIssues: FieldIssue[] = []
  for (const sp of set.pods) {
    try {
      podHostname(sp.pod, opts.clusterDomain ?? 'cluster.local')
    } catch (err) {
      const field = sp.pod.spec.setHostnameAsFQDN === true ? 'spec.setHostnameAsFQDN' : 'spec.hostname'
      hostIssues.push({location: sp.source.location, document: sp.source.document, field, message: errorMessage(err)})
    }
  }
  if (hostIssues.length > 0) throw new InvalidInputError(hostIssues)
  // Start-after names pods of this same set: an unknown name or a cycle would never start.
  const orderIssues = startAfterIssues(set.pods.map((sp) => ({manifestName: sp.manifestName, annotations: sp.pod.metadata.annotations, source: sp.source})))
  if (orderIssues.length > 0) throw new InvalidInputError(orderIssues)
  const noObjects = emptyLocationIssues(groups, objectLocations)
  if (noObjects.length > 0) throw new InvalidInputError(noObjects)
  if (set.pods.length === 0) throw new InvalidInputError([noPodIssue(groups)])
  const tooMany = maxPodsIssue(groups, set.pods, opts.maxPods)
  if (tooMany) throw new InvalidInputError([tooMany])
  return set
}

/** Each location that yielded nothing: empty, only comments or separators, or an empty List. */
export function emptyLocationIssues(groups: readonly BlobGroup[], objectLocations: ReadonlySet<string>): FieldIssue[] {
  return groups
    .filter((g) => !g.blobs.some((b) => objectLocations.has(b.location)))
    .map((g) => ({location: g.arg, document: 0, field: '', message: 'holds no objects (it is empty, or only comments, separators or an empty List)'}))
}

/** The whole input has objects but no Pod: named at its first location, listing them all when there are several. */
export function noPodIssue(groups: readonly BlobGroup[]): FieldIssue {
  const what = groups.length > 1 ? `none of the locations given (${groups.map((g) => g.arg).join(', ')}) holds a Pod` : 'holds no Pod'
  return {location: groups[0]?.arg ?? '-', document: 0, field: '', message: `${what}, only ConfigMaps or Secrets: give the pods that use them too, in the same or another location`}
}

/** More pods than the node runs: refused whole, before any of them is created, naming the location that passes the limit. */
function maxPodsIssue(groups: readonly BlobGroup[], pods: readonly StaticPod[], maxPods: number | undefined): FieldIssue | undefined {
  if (maxPods === undefined || pods.length <= maxPods) return undefined
  const perLocation = new Map<string, number>()
  for (const p of pods) perLocation.set(p.source.location, (perLocation.get(p.source.location) ?? 0) + 1)
  let counted = 0
  for (const g of groups) {
    const here = g.blobs.reduce((n, b) => n + (perLocation.get(b.location) ?? 0), 0)
    counted += here
    if (counted > maxPods) {
      return {location: g.arg, document: 0, field: '', message: `passes maxPods (${maxPods}), the most pods this node runs: the locations given define ${pods.length} pods in all, ${here} of them here`}
    }
  }
  return undefined
}
