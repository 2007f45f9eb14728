// The manifest pipeline in one call, for the commands: read every location, then build. Any
// problem anywhere → one InvalidInputError carrying every issue, and nothing else happens.
import {InvalidInputError} from '../util/errors.js'
import {buildManifests, type ManifestSet} from './build.js'
import {readManifests, type ManifestIO} from './read.js'

export type {ManifestSet} from './build.js'

export interface LoadOptions {
  nodeName: string
  io?: ManifestIO
}

export async function loadStaticPods(locations: readonly string[], opts: LoadOptions): Promise<ManifestSet> {
  const blobs = await readManifests(locations, opts.io)
  const {issues, ...set} = buildManifests(blobs, {nodeName: opts.nodeName})
  if (issues.length > 0) throw new InvalidInputError(issues)
  return set
}
