// The pods a command's name, -n and selectors pick, each with the view every reader shows
// (get.ts podView), so a field selector on status.phase sees the phase `get` prints.
import type {Pod} from '../../api/types.js'
import type {KubeNode} from '../../node/create-node.js'
import {listManagedPods, type ManagedPod} from '../pods/managed-pods.js'
import {podView, writerRunningOnce} from '../pods/pod-view.js'
import {AmbiguousSelectionError, podSelected, resolveOne, type PodQuery, type PodRef} from './pod-query.js'
import {NotFoundError} from '../../util/errors.js'

export interface SelectedPod {
  managed: ManagedPod
  pod: Pod
}

function candidate(p: ManagedPod): {name: string; namespace: string; manifestName: string} {
  return {name: p.observed.name, namespace: p.observed.namespace, manifestName: p.sp.manifestName}
}

/** The one pod `ref` names (NotFound or Ambiguous otherwise). */
export async function selectOne(node: KubeNode, ref: PodRef, opts: {unlessRecorded?: boolean} = {}): Promise<SelectedPod> {
  const pods = await listManagedPods(node, {name: ref.name, unlessRecorded: opts.unlessRecorded})
  const managed = resolveOne(
    pods.map((p) => ({...candidate(p), p})),
    ref,
  ).p
  return {managed, pod: podView(node, managed)}
}

/** Every pod the query selects, sorted by namespace and name. */
export async function selectMany(node: KubeNode, query: PodQuery, opts: {unlessRecorded?: boolean} = {}): Promise<SelectedPod[]> {
  const pods = await listManagedPods(node, {unlessRecorded: opts.unlessRecorded})
  const running = writerRunningOnce()
  return pods
    .map((managed) => ({managed, pod: podView(node, managed, running)}))
    .filter((s) => podSelected(s.pod, query))
    .sort((a, b) => {
      const ka = `${a.pod.metadata?.namespace}/${a.pod.metadata?.name}`
      const kb = `${b.pod.metadata?.namespace}/${b.pod.metadata?.name}`
      return ka < kb ? -1 : ka > kb ? 1 : 0
    })
}

/** The one pod a selector picks, for commands that act on one pod (logs, exec). */
export async function selectOnly(node: KubeNode, query: PodQuery): Promise<PodRef> {
  const found = await selectMany(node, query)
  if (found.length === 0) throw new NotFoundError('no pod matches the selector')
  if (found.length > 1) {
    const names = found.map((s) => `${s.pod.metadata?.namespace}/${s.pod.metadata?.name}`)
    throw new AmbiguousSelectionError(`the selector matches ${found.length} pods (${names.join(', ')}); narrow it or name one pod`)
  }
  return {name: found[0]!.managed.observed.name, namespace: found[0]!.managed.observed.namespace}
}
