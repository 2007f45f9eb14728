// The eviction manager's two effects for the emptyDir sizeLimit rule (decide/eviction.ts decides):
// measuring a pod's emptyDirs on disk, and stopping an evicted pod. The kubelet kills an evicted
// pod at once (grace period 0, raised to the 2s minimum as every kill is) and keeps what is left
// of it: its containers and sandbox stay, stopped, for its status, logs and events.
import type {StaticPod} from '../api/types.js'
import type {DiskUsageMeter} from '../host/port.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {emptyDirPath} from '../kuberuntime/naming.js'
import {emptyDirEviction, emptyDirLimits, type Eviction} from '../decide/eviction.js'
import {errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import {podObject} from '../pod/event-object.js'
import type {EventSink} from '../api/events.js'
import {stopPodSandboxes, type KillDeps} from './kill.js'

export interface EvictionDeps {
  diskUsage?: DiskUsageMeter | undefined
  rootDir: string
  logger: Logger
}

/**
 * Measures the pod's emptyDirs that have a sizeLimit on disk and returns the eviction their usage
 * calls for. Nothing is measured without a meter or such a volume; a measure that fails (the
 * directory being removed) counts as no usage, so it never evicts.
 */
export async function emptyDirLimitEviction(deps: EvictionDeps, sp: StaticPod): Promise<Eviction | undefined> {
  const limits = emptyDirLimits(sp.pod.spec)
  if (!deps.diskUsage || limits.length === 0) return undefined
  const used = new Map<string, number>()
  for (const l of limits) {
    try {
      const usage = await deps.diskUsage.measure(emptyDirPath(deps.rootDir, sp.pod.metadata.uid, l.name))
      if (!usage) continue
      used.set(l.name, usage.bytes)
      if (usage.truncated) deps.logger.debug(2, 'emptyDir measured in part: too many entries', {pod: sp.pod.metadata.name, volume: l.name})
    } catch (err) {
      deps.logger.debug(2, 'Could not measure an emptyDir', {pod: sp.pod.metadata.name, volume: l.name, err: errorMessage(err)})
    }
  }
  return emptyDirEviction(limits, used)
}

/** Records the eviction (a Warning event, as the kubelet's evictPod) and stops the pod, keeping its containers. */
export async function stopEvictedPod(deps: KillDeps & {events?: EventSink | undefined}, sp: StaticPod, observed: RuntimePod | undefined, eviction: Eviction): Promise<void> {
  deps.events?.emit(podObject(sp.pod), 'Warning', eviction.reason, eviction.message)
  deps.logger.warn('Evicting pod', {pod: sp.pod.metadata.name, reason: eviction.reason, message: eviction.message})
  await stopPodSandboxes(deps, sp.pod, observed, {remove: false, gracePeriodOverride: 0})
}
