// `watch`'s heart, the kubelet's syncLoop: it only schedules. Pod updates from the sources,
// lifecycle events from the PLEG, probe changes and a resync tick become work for the pod
// workers; housekeeping runs on its own timers. What happens to a pod is the pod lifecycle's
// (pod-lifecycle.ts, shared with `run`); how `watch` syncs and kills it is watch-worker.ts; how an
// update is taken is pod-updates.ts; the desired pods are watched-pods.ts.
import type {ObjectStore, PodStatus, PodUpdate, StaticPod} from '../api/types.js'
import type {Clock} from '../util/clock.js'
import type {Logger} from '../util/logger.js'
import type {NodeInfo} from '../util/node-info.js'
import type {StatusRecorder} from '../store/status-store.js'
import {PodWorkers} from './pod-workers.js'
import type {SyncContext} from './sync-pod.js'
import {PodLifecycle} from './pod-lifecycle.js'
import {WatchedPods} from './watched-pods.js'
import {applyUpdate, type UpdateTarget} from './pod-updates.js'
import {WatchWorker, type SyncLoopMetrics} from './watch-worker.js'
import {Housekeeping} from './housekeeping.js'
import {countPods, type PodCounts} from './pod-counts.js'
import {DEFAULT_LOG_ROTATION, type LogRotationOptions} from '../apply/log-rotation.js'
import {errorMessage} from '../util/errors.js'

export type {SyncLoopMetrics} from './watch-worker.js'

export interface LifecycleEvent {
  uid: string
  type: string
  containerId: string
}

export interface SyncLoopOptions {
  /** Base resync interval; each pod is re-synced after a uniform [1, 1.5) × this (kubelet: 1m). */
  resyncIntervalMs: number
  /** After a failed sync (kubelet backOffPeriod 10s, jitter 0.5). */
  errorBackOffMs: number
  housekeepingIntervalMs: number
  /** Container and sandbox garbage collection, and log rotation (kubelet: 1m / 10s). */
  gcIntervalMs: number
  /** How often emptyDirs on disk are measured against their sizeLimit (kubelet eviction monitoring: 10s). */
  evictionIntervalMs: number
  logRotation: LogRotationOptions
  tickMs: number
  /**
   * Pod syncs running at the same time. The runtime, not kube-node, is the bottleneck: on a
   * 2-core machine containerd is fastest with a few sandboxes at once (bench/converge.mjs).
   * Kills are not limited, so a long grace period never holds up other pods.
   */
  parallelism: number
  random?: () => number
}

export const DEFAULT_SYNC_LOOP_OPTIONS: SyncLoopOptions = {
  resyncIntervalMs: 60_000,
  errorBackOffMs: 10_000,
  housekeepingIntervalMs: 2_000,
  gcIntervalMs: 60_000,
  evictionIntervalMs: 10_000,
  logRotation: DEFAULT_LOG_ROTATION,
  tickMs: 1_000,
  parallelism: 4,
}

export interface SyncLoopDeps {
  /** The node's sync services; its runtime cache is the PLEG's, so an idle node costs only the relists. */
  sync: SyncContext
  logger: Logger
  clock: Clock
  /** True once every source has delivered a snapshot: before that nothing is deleted. */
  sourcesReady: () => boolean
  /** The ConfigMaps and Secrets the sources hold now. */
  objects: () => ObjectStore
  /** The node pods are admitted against; without it every pod is admitted. */
  node?: NodeInfo | undefined
  metrics?: SyncLoopMetrics | undefined
  /** Where each pod's computed status goes, for every other reader (the status store). */
  statusRecorder?: StatusRecorder | undefined
}

export class SyncLoop {
  /** Orphan kills, garbage collection and log rotation, emptyDir measuring (on their own timers). */
  readonly housekeeping: Housekeeping
  private readonly pods = new WatchedPods()
  private readonly workers: PodWorkers
  private readonly worker: WatchWorker
  private readonly updates: UpdateTarget
  private readonly opts: SyncLoopOptions
  private timers: (() => void)[] = []
  private lastTick = 0

  constructor(
    private readonly deps: SyncLoopDeps,
    opts: Partial<SyncLoopOptions> = {},
  ) {
    this.opts = {...DEFAULT_SYNC_LOOP_OPTIONS, ...opts}
    const {sync, logger, clock, metrics, sourcesReady} = deps
    const lifecycle = new PodLifecycle({sync, statusRecorder: deps.statusRecorder})
    const schedule = (work: Parameters<PodWorkers['update']>[0]): void => this.workers.update(work)
    const {resyncIntervalMs, errorBackOffMs, parallelism} = this.opts
    const random = this.opts.random ?? Math.random
    this.worker = new WatchWorker({sync, lifecycle, pods: this.pods, objects: deps.objects, schedule, logger, metrics}, {resyncIntervalMs, errorBackOffMs, parallelism, random})
    this.workers = new PodWorkers(this.worker, logger, clock)
    this.updates = {pods: this.pods, lifecycle, schedule, logger, node: deps.node, sourcesReady}
    this.housekeeping = new Housekeeping({sync, lifecycle, pods: this.pods, workers: this.workers, sourcesReady, logger}, this.opts)
  }

  /** Desired, active and working pods now (read at each /metrics scrape). */
  podCounts(): PodCounts {
    const desired = this.pods.all().map((r) => ({uid: r.sp.pod.metadata.uid, rejected: r.rejected !== undefined, phase: r.status?.phase}))
    return countPods(desired, this.workers.terminating())
  }

  start(): void {
    this.lastTick = this.deps.clock.now()
    const {clock} = this.deps
    const {tickMs, housekeepingIntervalMs, gcIntervalMs, evictionIntervalMs} = this.opts
    this.timers.push(clock.every(tickMs, () => this.tick()))
    this.timers.push(clock.every(housekeepingIntervalMs, () => void this.housekeeping.killOrphans()))
    this.timers.push(clock.every(gcIntervalMs, () => void this.housekeeping.collectGarbage()))
    this.timers.push(clock.every(evictionIntervalMs, () => void this.housekeeping.measureEmptyDirs()))
  }

  async stop(timeoutMs = 5_000): Promise<void> {
    for (const cancel of this.timers) cancel()
    this.timers = []
    await this.workers.stop(timeoutMs)
  }

  /** Healthy while the loop keeps ticking (kubelet: the sync loop is not stuck). */
  healthy(now: number): {ok: boolean; reason?: string} {
    const late = now - this.lastTick
    return late > 10 * this.opts.tickMs + 30_000 ? {ok: false, reason: `sync loop last ran ${Math.round(late / 1000)}s ago`} : {ok: true}
  }

  /** Desired pods with their last computed status. */
  statuses(): {sp: StaticPod; status: PodStatus | undefined}[] {
    return this.pods.all().map((r) => ({sp: r.sp, status: r.status}))
  }

  handleUpdates(updates: PodUpdate[]): void {
    const now = this.deps.clock.now()
    for (const u of updates) {
      for (const sp of u.pods) {
        try {
          applyUpdate(this.updates, u.op, sp, now)
        } catch (err) {
          // One pod's problem never stops the handling of the others.
          this.deps.logger.error('Could not handle a pod update', {pod: sp.pod.metadata.name, op: u.op, err: errorMessage(err)})
        }
      }
    }
  }

  handleLifecycleEvents(events: LifecycleEvent[]): void {
    const uids = new Set(events.filter((e) => e.type !== 'ContainerRemoved').map((e) => e.uid))
    // Like a probe change: the pod is synced.
    for (const uid of uids) this.handleProbeChange(uid)
  }

  /** A probe result changed: the pod is synced (restart on liveness failure, readiness in status). */
  handleProbeChange(uid: string): void {
    const rec = this.pods.get(uid)
    if (rec && !rec.rejected) this.workers.update({type: 'sync', sp: rec.sp, reason: 'sync'})
  }

  /** Syncs every pod that is due (resync interval, back-off expiry); a busy one whose active deadline passed is interrupted. */
  tick(): void {
    const now = this.deps.clock.now()
    this.lastTick = now
    for (const rec of this.pods.all()) {
      if (rec.rejected) continue
      const busy = this.workers.isBusy(rec.sp.pod.metadata.uid)
      if (rec.nextSyncAt <= now && !busy) {
        rec.nextSyncAt = Number.POSITIVE_INFINITY
        this.workers.update({type: 'sync', sp: rec.sp, reason: 'sync'})
      } else if (busy) this.worker.interruptAtDeadline(rec, now)
    }
  }

  /** Waits until no worker has anything to do (tests). */
  idle(): Promise<void> {
    return this.workers.idle()
  }
}
