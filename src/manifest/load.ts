// The manifest pipeline in one call, for the commands: read every location, then build. Any
// problem anywhere → one InvalidInputError carrying every issue, and nothing else happens. A
// location that yields no Pod is a problem too (kubectl: "no objects passed"): an empty file
// given to `run` is a mistake, not a request to do nothing.
import {InvalidInputError, type FieldIssue} from '../util/errors.js'
import {buildManifests, type ManifestSet} from './build.js'
import {readManifestGroups, type ManifestIO} from './read.js'

export type {ManifestSet} from './build.js'

export interface LoadOptions {
  nodeName: string
  io?: ManifestIO
}

export async function loadStaticPods(locations: readonly string[], opts: LoadOptions): Promise<ManifestSet> {
  const groups = await readManifestGroups(locations, opts.io)
  const {issues, ...set} = buildManifests(groups.flatMap((g) => g.blobs), {nodeName: opts.nodeName})
  if (issues.length > 0) throw new InvalidInputError(issues)
  const withPods = new Set(set.pods.map((p) => p.source.location))
  const empty: FieldIssue[] = groups
    .filter((g) => !g.blobs.some((b) => withPods.has(b.location)))
    .map((g) => ({location: g.arg, document: 0, field: '', message: 'holds no Pod (empty, only comments or separators, or only ConfigMaps and Secrets)'}))
  if (empty.length > 0) throw new InvalidInputError(empty)
  return set
}
