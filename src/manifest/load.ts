// The manifest pipeline in one call, for the commands: read every location, then build. Any
// problem anywhere → one InvalidInputError carrying every issue, and nothing else happens. A
// location that yields no Pod is a problem too (kubectl: "no objects passed"): an empty file
// given to `run` is a mistake, not a request to do nothing.
import {errorMessage, InvalidInputError, type FieldIssue} from '../util/errors.js'
import {podHostname} from '../kuberuntime/sandbox-config.js'
import {buildManifests, type ManifestSet} from './build.js'
import {readManifestGroups, type ManifestIO} from './read.js'
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
}

export async function loadStaticPods(locations: readonly string[], opts: LoadOptions): Promise<ManifestSet> {
  const groups = await readManifestGroups(locations, opts.io)
  const {issues, warnings, ...set} = buildManifests(groups.flatMap((g) => g.blobs), {nodeName: opts.nodeName, validate: opts.validate})
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
  const withPods = new Set(set.pods.map((p) => p.source.location))
  const empty: FieldIssue[] = groups
    .filter((g) => !g.blobs.some((b) => withPods.has(b.location)))
    .map((g) => ({location: g.arg, document: 0, field: '', message: 'holds no Pod (empty, only comments or separators, or only ConfigMaps and Secrets)'}))
  if (empty.length > 0) throw new InvalidInputError(empty)
  return set
}
