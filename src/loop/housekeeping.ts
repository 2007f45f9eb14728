// `watch`'s housekeeping, on its own timers beside the sync loop (the kubelet's
// HandlePodCleanups, its garbage collector and its eviction manager's monitoring): pods no source
// wants are killed, old dead containers and sandboxes are removed and big logs rotated, and the
// emptyDirs of active pods are measured against their sizeLimit.
import type {RuntimePod} from '../kuberuntime/model.js'
import type {SyncContext} from './sync-pod.js'
import type {PodWork} from './pod-workers.js'
import type {PodLifecycle} from './pod-lifecycle.js'
import type {WatchedPods} from './watched-pods.js'
import {removeGarbage} from '../apply/collect-garbage.js'
import {rotateLogs, type LogRotationOptions} from '../apply/log-rotation.js'
import {errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'

/** What housekeeping needs of the pod workers. */
export interface WorkerView {
  isBusy(uid: string): boolean
  isTerminating(uid: string): boolean
  update(work: PodWork): void
}

export interface HousekeepingDeps {
  sync: SyncContext
  lifecycle: PodLifecycle
  pods: WatchedPods
  workers: WorkerView
  /** True once every source has delivered a snapshot: before that nothing is deleted. */
  sourcesReady: () => boolean
  logger: Logger
}

export interface HousekeepingOptions {
  /** Views of the runtime older than this are read again. */
  housekeepingIntervalMs: number
  logRotation: LogRotationOptions
}

export class Housekeeping {
  /** A measure of the emptyDirs is under way: the next tick does not start another. */
  private measuring = false

  constructor(
    private readonly deps: HousekeepingDeps,
    private readonly opts: HousekeepingOptions,
  ) {}

  /** Kills kube-node's pods that no source wants (only once all sources have reported). */
  async killOrphans(observed?: RuntimePod[]): Promise<void> {
    const {sourcesReady, pods, workers, logger} = this.deps
    if (!sourcesReady()) return
    let runtimePods: RuntimePod[]
    try {
      runtimePods = observed ?? (await this.recentPods())
    } catch (err) {
      logger.debug(2, 'Housekeeping could not list pods', {err: errorMessage(err)})
      return
    }
    for (const rp of runtimePods) {
      // A sync still in flight for an unwanted pod (removed before the sources were ready) is
      // interrupted by this kill; a kill already under way is left to finish.
      if (pods.has(rp.uid) || workers.isTerminating(rp.uid)) continue
      workers.update({type: 'kill', uid: rp.uid, observed: rp, reason: 'no source defines this pod'})
    }
  }

  /** Removes old dead containers and sandboxes of wanted pods, and rotates big logs. */
  async collectGarbage(observed?: RuntimePod[]): Promise<void> {
    const {sync, pods, workers, logger} = this.deps
    const {deps, clock} = sync
    sync.backOff.gc(clock.now())
    try {
      const idle = (observed ?? (await this.recentPods())).filter((p) => !workers.isBusy(p.uid))
      await removeGarbage(deps, idle, pods.uids())
      await rotateLogs(deps, idle, {...this.opts.logRotation, podLogsDir: deps.podLogsDir}, new Date(clock.now()), logger)
    } catch (err) {
      logger.warn('Garbage collection failed; will retry', {err: errorMessage(err)})
    }
  }

  /**
   * Every active pod's emptyDirs, measured one pod after another (never two measures at once),
   * as the kubelet's eviction manager ranks only active pods.
   */
  async measureEmptyDirs(): Promise<void> {
    const {sync, pods, workers, lifecycle, logger} = this.deps
    if (!sync.deps.diskUsage || this.measuring) return
    this.measuring = true
    try {
      for (const rec of pods.active()) {
        if (workers.isTerminating(rec.sp.pod.metadata.uid)) continue
        // The pod may have been edited, removed or refused while it was measured.
        await lifecycle.checkEmptyDirs(rec.sp, () => pods.isCurrent(rec))
      }
    } catch (err) {
      logger.warn('Measuring emptyDirs failed; will retry', {err: errorMessage(err)})
    } finally {
      this.measuring = false
    }
  }

  /** The runtime's pods from a read no older than a housekeeping period (the PLEG's, in watch). */
  private recentPods(): Promise<RuntimePod[]> {
    const {cache, clock} = this.deps.sync
    return cache.allNewerThan(clock.now() - this.opts.housekeepingIntervalMs)
  }
}
