// Refuses `run`, `delete pod` and `down` on the root dir of a running `watch` (watch-refusal.ts
// says when and in which words); one call at the start of each.
import type {StaticPod} from '../api/types.js'
import type {KubeNode} from '../node/create-node.js'
import {lockHolder} from '../node/lock.js'
import {loadPod} from '../node/pod-store.js'
import {watchRefusal, type GuardedCommand} from './watch-refusal.js'
import {readStatusRecord} from '../store/status-store.js'
import {podConfigHash} from '../kuberuntime/hash.js'
import {KubeNodeError} from '../util/errors.js'

/** The root dir belongs to a running watch, which would undo what the command does. Exit code 1. */
export class ManagedByWatchError extends KubeNodeError {
  readonly kind = 'ManagedByWatch'
}

export async function refuseUnderWatch(node: KubeNode, command: GuardedCommand, pods: readonly StaticPod[]): Promise<void> {
  if (pods.length === 0) return
  const {rootDir} = node.config
  const pid = await lockHolder(rootDir)
  if (pid === undefined) return
  const watched = await Promise.all(
    pods.map(async (sp) => {
      // The watch manages a pod whose status its own process recorded last, and runs this version
      // of it when that record is of this manifest hash.
      const rec = await readStatusRecord(node.fs, rootDir, sp.pod.metadata.uid).catch(() => undefined)
      const managed = rec !== undefined && rec.writer.command === 'watch' && rec.writer.pid === pid
      const sameAsWatch = managed && rec.manifestHash === podConfigHash(sp.pod)
      // Where the watch reads the pod from is what it recorded (pod.json), not the -f of `down`.
      const stored = command === 'run' ? undefined : await loadPod(rootDir, sp.pod.metadata.uid)
      const manifest = stored && stored.source.kind !== 'stdin' ? stored.source.location : undefined
      return {name: sp.manifestName, managed, sameAsWatch, manifest}
    }),
  )
  const refusal = watchRefusal(command, rootDir, pid, watched)
  if (refusal !== undefined) throw new ManagedByWatchError(refusal)
}
