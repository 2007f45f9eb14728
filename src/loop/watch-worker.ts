// `watch`'s work on one pod, run by that pod's worker: a sync through the pod lifecycle (within
// the node's parallelism), and then what only `watch` does with it: when the pod is next due, the
// pods its readiness releases, its log lines and metrics. Or the pod's kill.
import type {ObjectStore, StaticPod} from '../api/types.js'
import type {Logger} from '../util/logger.js'
import type {PodSyncer, PodWork} from './pod-workers.js'
import {gateFor, type PodSyncOutcome, type SyncContext} from './sync-pod.js'
import {backOffUntil, type PodLifecycle} from './pod-lifecycle.js'
import type {PodRecord, WatchedPods} from './watched-pods.js'
import {markRejected} from './pod-updates.js'
import {describeAction} from '../decide/describe.js'
import {nextSyncAt} from '../decide/next-sync.js'
import {awaitedFromStatus} from '../decide/start-gate.js'
import {activeDeadlineAt} from '../pod/active-deadline.js'
import {limiter, type Limiter} from '../util/limiter.js'
import {errorMessage} from '../util/errors.js'
import {abortReason} from '../util/abort.js'

export interface SyncLoopMetrics {
  observeWorker(operation: 'create' | 'update' | 'sync' | 'kill', seconds: number): void
  observePodStart(seconds: number): void
  syncError(): void
  /** A pod was started again under the same UID after its kill (kubelet_restarted_pods_total). */
  podRestarted?(): void
}

export interface WatchWorkerDeps {
  sync: SyncContext
  lifecycle: PodLifecycle
  pods: WatchedPods
  /** The ConfigMaps and Secrets the sources hold now. */
  objects: () => ObjectStore
  /** Hands work to the pod workers (a kill after a refusal, the syncs a Ready pod releases). */
  schedule: (work: PodWork) => void
  logger: Logger
  metrics?: SyncLoopMetrics | undefined
}

export interface WatchWorkerOptions {
  resyncIntervalMs: number
  errorBackOffMs: number
  parallelism: number
  random: () => number
}

export class WatchWorker implements PodSyncer {
  private readonly limit: Limiter

  constructor(
    private readonly deps: WatchWorkerDeps,
    private readonly opts: WatchWorkerOptions,
  ) {
    this.limit = limiter(opts.parallelism)
  }

  async sync(sp: StaticPod, reason: string, signal: AbortSignal): Promise<void> {
    // The record holds the pod's latest manifest: an edit may have come since this work was queued.
    const rec = this.deps.pods.get(sp.pod.metadata.uid)
    if (!rec) return
    const {lifecycle, objects, metrics, sync} = this.deps
    const started = sync.clock.now()
    try {
      if (await this.refusedByRuntime(rec)) return
      const wasReady = awaitedFromStatus(rec.status).state === 'ready'
      // The cache answers when it was read after the pod's last change; else it reads the runtime.
      // A kill while the sync waits for a slot or runs ends it (signal): the kill comes next.
      const outcome = await this.limit(() => lifecycle.sync(rec.sp, rec, {objects: objects(), signal}, rec.lastChangeAt, gateFor(rec.sp.startAfter, (name) => this.deps.pods.awaited(name))), signal)
      if (outcome.interrupted) return this.interrupted(rec, signal)
      this.synced(rec, outcome, wasReady)
    } catch (err) {
      if (signal.aborted) return this.interrupted(rec, signal)
      rec.nextSyncAt = this.nextSync(sync.clock.now(), {failed: true})
      metrics?.syncError()
      this.deps.logger.error('Error syncing pod, will retry', {pod: rec.sp.pod.metadata.name, err: errorMessage(err)})
      lifecycle.syncFailed(rec.sp, rec, err)
    } finally {
      metrics?.observeWorker(reason === 'create' || reason === 'update' ? reason : 'sync', (sync.clock.now() - started) / 1000)
    }
  }

  async kill(work: Extract<PodWork, {type: 'kill'}>): Promise<void> {
    const {sync, logger, metrics} = this.deps
    const started = sync.clock.now()
    try {
      const observed = (await sync.cache.getNewerThan(work.uid, sync.clock.now())) ?? work.observed
      if (observed) logger.info('Stopping pod', {pod: observed.name, reason: work.reason})
      await this.deps.lifecycle.stop(work.uid, observed, work.sp?.pod)
    } finally {
      metrics?.observeWorker('kill', (sync.clock.now() - started) / 1000)
    }
  }

  restarted(): void {
    this.deps.metrics?.podRestarted?.()
  }

  /** The deadline's kill does not wait for a long pull or hook of the sync in flight (once per deadline). */
  interruptAtDeadline(rec: PodRecord, now: number): void {
    const {cache, instanceStarts} = this.deps.sync
    const deadline = activeDeadlineAt(rec.sp.pod.spec, cache.get(rec.sp.pod.metadata.uid)?.sandboxes ?? [], instanceStarts?.startOf(rec.sp, now))
    if (deadline === undefined || deadline > now || rec.deadlineInterrupted === deadline) return
    rec.deadlineInterrupted = deadline
    this.deps.schedule({type: 'sync', sp: rec.sp, reason: 'sync', interrupts: 'its active deadline passed'})
  }

  /**
   * The runtime-dependent fields of an added or edited pod, checked once before its first sync
   * (the features are read once, on the first pod using one). A refused pod is rejected as at
   * admission; if an edit brought the field to a pod already running, it is killed.
   */
  private async refusedByRuntime(rec: PodRecord): Promise<boolean> {
    if (!rec.runtimeCheckDue) return false
    const verdict = await this.deps.lifecycle.checkRuntime(rec.sp, rec)
    rec.runtimeCheckDue = false
    if (!verdict) return false
    markRejected(rec, verdict, this.deps.logger)
    if (rec.everSynced) this.deps.schedule({type: 'kill', uid: rec.sp.pod.metadata.uid, sp: rec.sp, reason: `${verdict.reason}: ${verdict.message}`})
    return true
  }

  /** What `watch` does after a sync: its log lines, the released pods, the next sync, the metrics. */
  private synced(rec: PodRecord, outcome: PodSyncOutcome, wasReady: boolean): void {
    const {logger, sync, metrics, pods, schedule} = this.deps
    const pod = rec.sp.pod.metadata.name
    if (outcome.plan.actions.length > 0) rec.lastChangeAt = sync.clock.now()
    if (outcome.held && outcome.held.reason !== rec.heldBy) logger.info('Pod not created yet', {pod, reason: outcome.held.reason})
    rec.heldBy = outcome.held?.reason
    // A pod turned Ready: the pods that start after it are synced now, not at their next resync;
    // every one of them, since a sync in flight may have been held just before.
    if (!wasReady && awaitedFromStatus(rec.status).state === 'ready') {
      for (const r of pods.startingAfter(rec.sp.manifestName)) schedule({type: 'sync', sp: r.sp, reason: 'sync'})
    }
    rec.everSynced = true
    for (const a of outcome.plan.actions) logger.info(describeAction(a), {pod})
    for (const f of outcome.failures) logger.warn('Sync step failed', {pod, container: f.container || undefined, reason: f.reason, message: f.message})
    const now = sync.clock.now()
    // The pod is synced when its active deadline falls (the kubelet's activeDeadlineHandler).
    const deadline = activeDeadlineAt(rec.sp.pod.spec, outcome.observed?.sandboxes ?? [], sync.instanceStarts?.startOf(rec.sp, now))
    rec.nextSyncAt = this.nextSync(now, {failed: outcome.failures.length > 0, backOffUntil: Object.values(backOffUntil(outcome)), deadline})
    if (outcome.failures.length > 0) metrics?.syncError()
    const cs = outcome.status.containerStatuses ?? []
    if (!rec.startReported && cs.length > 0 && cs.every((c) => c.state?.running)) {
      rec.startReported = true
      metrics?.observePodStart((now - rec.firstSeenAt) / 1000)
    }
  }

  private nextSync(now: number, after: {failed: boolean; backOffUntil?: number[]; deadline?: number | undefined}): number {
    const {resyncIntervalMs, errorBackOffMs, random} = this.opts
    return nextSyncAt({now, backOffUntil: after.backOffUntil ?? [], failed: after.failed, deadline: after.deadline, resyncIntervalMs, errorBackOffMs, random: random()})
  }

  /**
   * An interrupted sync ends quietly: no status, failure or back-off is recorded (the kill that
   * interrupted it follows). The runtime may have changed, so the next view is read afresh.
   */
  private interrupted(rec: PodRecord, signal: AbortSignal): void {
    const {clock} = this.deps.sync
    const now = clock.now()
    rec.lastChangeAt = now
    rec.nextSyncAt = now
    this.deps.logger.debug(2, 'Sync interrupted', {pod: rec.sp.pod.metadata.name, reason: abortReason(signal).message})
  }
}
