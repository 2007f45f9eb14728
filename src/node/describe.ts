// `describe pod`: one pod as every reader sees it (the recorded status while it describes the
// runtime) and its events, for the kubectl-style renderer.
import type {EventList, Pod} from '../api/types.js'
import type {KubeNode} from './create-node.js'
import {listEvents} from './events.js'
import {podView} from './get.js'
import {listManagedPods, matchesName} from './pods.js'
import {NotFoundError} from '../util/errors.js'

export interface PodDescription {
  pod: Pod
  events: EventList
  nodeName: string
  hostIP: string
}

export async function describePod(node: KubeNode, name: string): Promise<PodDescription> {
  const managed = (await listManagedPods(node, {name})).find((p) => matchesName(p, name))
  if (!managed) throw new NotFoundError(`pod "${name}" not found`)
  const events = await listEvents(node, managed.observed.name)
  return {pod: podView(node, managed), events, nodeName: node.config.nodeName, hostIP: node.sync.deps.hostIP ?? ''}
}
