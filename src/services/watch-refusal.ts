// Whether `run`, `delete pod` or `down` may act on a root dir that a running `watch` manages, and
// the sentence that says why not. The watch converges the node to its manifests: a pod started
// beside them is removed, a pod stopped beside them is started again, seconds later. So these
// commands refuse, as a second `watch` does, and name what to do instead. A `run` of pods the
// watch already runs from the same manifests changes nothing and may go on (it only waits and
// reports), and so may a `delete` or `down` of pods the watch does not manage (it would remove
// them itself). Pure.

export interface WatchedPod {
  /** The manifest's pod name. */
  name: string
  /** The running watch manages this pod (it recorded its status last). */
  managed?: boolean | undefined
  /** For `run`: the watch runs this pod from this very manifest version. */
  sameAsWatch?: boolean | undefined
  /** Where the watch reads the pod from (a file or URL), when known. */
  manifest?: string | undefined
}

export type GuardedCommand = 'run' | 'delete' | 'down'

const quoted = (pods: readonly WatchedPod[]): string => pods.map((p) => `"${p.name}"`).join(', ')

/** undefined: the command may go on. */
export function watchRefusal(command: GuardedCommand, rootDir: string, watchPid: number | undefined, pods: readonly WatchedPod[]): string | undefined {
  if (watchPid === undefined || pods.length === 0) return undefined
  const who = `kube-node watch (pid ${watchPid}) manages root dir ${rootDir}`
  if (command === 'run') {
    const other = pods.filter((p) => !p.sameAsWatch)
    if (other.length === 0) return undefined
    const what = other.length === 1 ? `pod ${quoted(other)}` : `pods ${quoted(other)}`
    return `${who} and would undo ${what} within seconds (it runs only its own manifests): put the manifest in the directory watch reads, or use another --root-dir`
  }
  // A pod no source of the watch wants is removed by the watch anyway: stopping it undoes nothing.
  const managed = pods.filter((p) => p.managed)
  if (managed.length === 0) return undefined
  const what = managed.length === 1 ? `pod ${quoted(managed)}` : `pods ${quoted(managed)}`
  const files = [...new Set(managed.map((p) => p.manifest).filter((m): m is string => m !== undefined && m !== ''))]
  const where = files.length > 0 ? ` (${files.join(', ')})` : ''
  return `${who} and would start ${what} again: remove the manifest${files.length > 1 ? 's' : ''} from what watch reads${where}, or stop watch first (its pods keep running) and then ${command === 'delete' ? 'delete' : 'down'}`
}
