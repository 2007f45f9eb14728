// The eviction manager's two effects for the emptyDir sizeLimit rule (decide/eviction.ts decides):
// measuring a pod's emptyDirs on disk, and saying that a pod is over its limit. Every static pod
// is critical to the kubelet, whose evictPod refuses such a pod ("cannot evict a critical pod")
// and leaves it running: kube-node does the same, and makes the excess visible as a Warning event.
import type {StaticPod} from '../api/types.js'
import type {DiskUsageMeter} from '../host/port.js'
import {emptyDirPath} from '../kuberuntime/naming.js'
import {emptyDirEviction, emptyDirLimits, type Eviction} from '../decide/eviction.js'
import {errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import {podObject} from '../pod/event-object.js'
import type {EventSink} from '../api/events.js'

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

/** Why a pod over an emptyDir sizeLimit keeps running: the event's reason. */
export const EVICTION_REFUSED_REASON = 'ExceededEmptyDirLimit'

/**
 * A static pod over an emptyDir sizeLimit is not evicted (it is critical): the kubelet's error log
 * line, and a Warning event that a person and `kube-node events` see (the event recorder counts
 * repeats, one measure every 10 s).
 */
export function reportEmptyDirExcess(deps: {logger: Logger; events?: EventSink | undefined}, sp: StaticPod, excess: Eviction): void {
  deps.logger.error('Eviction manager: cannot evict a critical pod', {pod: sp.pod.metadata.name, message: excess.message})
  deps.events?.emit(podObject(sp.pod), 'Warning', EVICTION_REFUSED_REASON, `${excess.message} The pod is not evicted: a static pod is critical.`)
}
