// `watch`'s heart, the kubelet's syncLoop: pod updates from the sources, lifecycle events from the
// PLEG, a resync tick and housekeeping all turn into work for the pod workers. It keeps, per
// desired pod, the waiting reasons and the last status it computed (for /pods) and when the pod
// is next due for a sync.
import type {PodStatus, PodUpdate, StaticPod} from '../api/types.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {Clock} from '../util/clock.js'
import type {Logger} from '../util/logger.js'
import type {ObjectStore} from '../api/types.js'
import {PodWorkers, type PodWork} from './pod-workers.js'
import {syncPod, type SyncContext, type WaitingReasons} from './sync-pod.js'
import {terminatePod} from '../apply/terminate.js'
import type {ExecutorDeps} from '../apply/execute-plan.js'
import type {RuntimeCache} from '../pleg/runtime-cache.js'
import {describeAction} from '../decide/describe.js'
import {errorMessage} from '../util/errors.js'
import {abortReason} from '../util/abort.js'
import {admitPod, checkRuntimeSupport, rejectedStatus, type Rejection} from '../decide/admission.js'
import {needsRuntimeSupport} from '../decide/runtime-support.js'
import {removeGarbage} from '../apply/collect-garbage.js'
import {limiter, type Limiter} from '../util/limiter.js'
import {DEFAULT_LOG_ROTATION, rotateLogs, type LogRotationOptions} from '../apply/log-rotation.js'
import type {NodeInfo} from '../util/node-info.js'
import type {StatusRecorder} from '../store/status-store.js'
import {withTransitionTimes} from '../status/transitions.js'
import {podObject} from '../pod/event-object.js'
import {activeDeadlineAt} from '../pod/active-deadline.js'
import {podDataDir} from '../kuberuntime/naming.js'
import {cleanupVolumes} from '../volumes/prepare.js'
import {countPods, type PodCounts} from './pod-counts.js'
import {awaitedFromStatus, startGate, type AwaitedPod} from '../decide/start-gate.js'
import type {StartGateCheck} from './sync-pod.js'
import {emptyDirLimitEviction, reportEmptyDirExcess} from '../apply/evict.js'

export interface SyncLoopMetrics {
  observeWorker(operation: 'create' | 'update' | 'sync' | 'kill', seconds: number): void
  observePodStart(seconds: number): void
  syncError(): void
  /** A pod was started again under the same UID after its kill (kubelet_restarted_pods_total). */
  podRestarted?(): void
}

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

interface PodRecord {
  sp: StaticPod
  waiting: WaitingReasons
  status?: PodStatus
  nextSyncAt: number
  firstSeenAt: number
  startReported: boolean
  everSynced: boolean
  /** Set when admission refused the pod: it is never started (until an edit is admitted). */
  rejected?: Rejection
  /** When a sync of this pod last changed the runtime (ms); cached views older than it are stale. */
  lastChangeAt: number
  /** The active deadline whose passing already interrupted a sync (once per deadline). */
  deadlineInterrupted?: number | undefined
  /** Why the pod is not created yet (start-after), while it waits: logged when it changes. */
  heldBy?: string | undefined
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


function finished(status: PodStatus | undefined): boolean {
  return status?.phase === 'Succeeded' || status?.phase === 'Failed'
}

export class SyncLoop {
  private readonly pods = new Map<string, PodRecord>()
  private readonly workers: PodWorkers
  private timers: (() => void)[] = []
  private lastTick = 0
  private readonly opts: SyncLoopOptions
  private readonly random: () => number
  private readonly limit: Limiter
  /** The node's effects (garbage collection, log rotation, pod removal) and its runtime view. */
  private readonly effects: ExecutorDeps
  private readonly cache: RuntimeCache
  /** A measure of the emptyDirs is under way: the next tick does not start another. */
  private measuring = false

  constructor(
    private readonly deps: SyncLoopDeps,
    opts: Partial<SyncLoopOptions> = {},
  ) {
    this.opts = {...DEFAULT_SYNC_LOOP_OPTIONS, ...opts}
    this.random = this.opts.random ?? Math.random
    this.limit = limiter(this.opts.parallelism)
    this.effects = deps.sync.deps
    this.cache = deps.sync.cache
    this.workers = new PodWorkers(
      {sync: (sp, reason, signal) => this.syncOne(sp, reason, signal), kill: (w) => this.killOne(w), restarted: () => deps.metrics?.podRestarted?.()},
      deps.logger,
      deps.clock,
    )
  }

  /** Desired, active and working pods now (read at each /metrics scrape). */
  podCounts(): PodCounts {
    const desired = [...this.pods.entries()].map(([uid, r]) => ({uid, rejected: r.rejected !== undefined, phase: r.status?.phase}))
    return countPods(desired, this.workers.terminating())
  }

  start(): void {
    this.lastTick = this.deps.clock.now()
    const {clock} = this.deps
    this.timers.push(clock.every(this.opts.tickMs, () => this.tick()))
    this.timers.push(clock.every(this.opts.housekeepingIntervalMs, () => void this.housekeeping()))
    this.timers.push(clock.every(this.opts.gcIntervalMs, () => void this.collectGarbage()))
    this.timers.push(clock.every(this.opts.evictionIntervalMs, () => void this.checkEvictions()))
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
    return [...this.pods.values()].map((r) => ({sp: r.sp, status: r.status}))
  }

  handleUpdates(updates: PodUpdate[]): void {
    const now = this.deps.clock.now()
    for (const u of updates) {
      for (const sp of u.pods) {
        try {
          this.handleUpdate(u.op, sp, now)
        } catch (err) {
          // One pod's problem never stops the handling of the others.
          this.deps.logger.error('Could not handle a pod update', {pod: sp.pod.metadata.name, op: u.op, err: errorMessage(err)})
        }
      }
    }
  }

  private handleUpdate(op: PodUpdate['op'], sp: StaticPod, now: number): void {
    const uid = sp.pod.metadata.uid
    switch (op) {
      case 'ADD':
      case 'UPDATE': {
        let rec = this.pods.get(uid)
        if (rec) rec.sp = sp
        else {
          // A new pod reads the runtime itself first: the cache may predate a recent kill of the same UID.
          rec = {sp, waiting: new Map(), nextSyncAt: now, firstSeenAt: now, startReported: false, everSynced: false, lastChangeAt: now}
          this.pods.set(uid, rec)
        }
        this.deps.logger.info(op === 'ADD' ? 'Pod added' : 'Pod updated', {pod: sp.pod.metadata.name, source: sp.source.location})
        // A new pod, or a rejected one that was edited, must pass admission first.
        if ((op === 'ADD' && !rec.everSynced) || rec.rejected) {
          if (!this.admit(rec)) break
        }
        this.workers.update({type: 'sync', sp, reason: op === 'ADD' ? 'create' : 'update'})
        break
      }
      case 'REMOVE': {
        const gone = this.pods.get(uid)
        this.pods.delete(uid)
        // A refused pod never ran: nothing will be terminated, so its record and events go now.
        if (gone?.rejected) void this.forgetPodFiles(uid)
        this.deps.logger.info('Pod removed from its source', {pod: sp.pod.metadata.name, source: sp.source.location})
        if (this.deps.sourcesReady()) this.workers.update({type: 'kill', uid, sp, reason: 'its manifest is gone'})
        break
      }
      case 'RECONCILE': {
        const rec = this.pods.get(uid)
        if (rec) rec.sp = sp
        break
      }
    }
  }

  handleLifecycleEvents(events: LifecycleEvent[]): void {
    const uids = new Set(events.filter((e) => e.type !== 'ContainerRemoved').map((e) => e.uid))
    for (const uid of uids) {
      const rec = this.pods.get(uid)
      if (rec && !rec.rejected) this.workers.update({type: 'sync', sp: rec.sp, reason: 'sync'})
    }
  }

  /** A probe result changed: the pod is synced (restart on liveness failure, readiness in status). */
  handleProbeChange(uid: string): void {
    const rec = this.pods.get(uid)
    if (rec && !rec.rejected) this.workers.update({type: 'sync', sp: rec.sp, reason: 'sync'})
  }

  /** Syncs every pod that is due (resync interval, back-off expiry). */
  tick(): void {
    const now = this.deps.clock.now()
    this.lastTick = now
    for (const rec of this.pods.values()) {
      if (rec.rejected) continue
      const busy = this.workers.isBusy(rec.sp.pod.metadata.uid)
      if (rec.nextSyncAt <= now && !busy) {
        rec.nextSyncAt = Number.POSITIVE_INFINITY
        this.workers.update({type: 'sync', sp: rec.sp, reason: 'sync'})
      } else if (busy) this.interruptAtDeadline(rec, now)
    }
  }

  /** The deadline's kill does not wait for a long pull or hook of the sync in flight (once per deadline). */
  private interruptAtDeadline(rec: PodRecord, now: number): void {
    const deadline = activeDeadlineAt(rec.sp.pod.spec, this.cache.get(rec.sp.pod.metadata.uid)?.sandboxes ?? [], this.deps.sync.instanceStarts?.startOf(rec.sp, now))
    if (deadline === undefined || deadline > now || rec.deadlineInterrupted === deadline) return
    rec.deadlineInterrupted = deadline
    this.workers.update({type: 'sync', sp: rec.sp, reason: 'sync', interrupts: 'its active deadline passed'})
  }

  /** Kills kube-node's pods that no source wants (only once all sources have reported). */
  async housekeeping(observed?: RuntimePod[]): Promise<void> {
    if (!this.deps.sourcesReady()) return
    let runtimePods: RuntimePod[]
    try {
      runtimePods = observed ?? (await this.recentPods())
    } catch (err) {
      this.deps.logger.debug(2, 'Housekeeping could not list pods', {err: errorMessage(err)})
      return
    }
    for (const rp of runtimePods) {
      // A sync still in flight for an unwanted pod (removed before the sources were ready) is
      // interrupted by this kill; a kill already under way is left to finish.
      if (this.pods.has(rp.uid) || this.workers.isTerminating(rp.uid)) continue
      this.workers.update({type: 'kill', uid: rp.uid, observed: rp, reason: 'no source defines this pod'})
    }
  }

  /** Removes old dead containers and sandboxes of wanted pods, and rotates big logs. */
  async collectGarbage(observed?: RuntimePod[]): Promise<void> {
    const {sync, logger, clock} = this.deps
    sync.backOff.gc(clock.now())
    try {
      const pods = (observed ?? (await this.recentPods())).filter((p) => !this.workers.isBusy(p.uid))
      await removeGarbage(this.effects, pods, new Set(this.pods.keys()))
      await rotateLogs(this.effects, pods, {...this.opts.logRotation, podLogsDir: this.effects.podLogsDir}, new Date(clock.now()), logger)
    } catch (err) {
      logger.warn('Garbage collection failed; will retry', {err: errorMessage(err)})
    }
  }

  /**
   * The eviction manager's emptyDir rule: every running pod's emptyDirs on disk are measured, one
   * after another (never two measures at once), and a pod over a sizeLimit is reported, not
   * evicted: static pods are critical (apply/evict.ts).
   */
  async checkEvictions(): Promise<void> {
    if (!this.effects.diskUsage || this.measuring) return
    this.measuring = true
    try {
      for (const rec of [...this.pods.values()]) {
        const uid = rec.sp.pod.metadata.uid
        // Only active pods are measured, as the kubelet's eviction manager ranks only active pods.
        if (rec.rejected || !rec.everSynced || this.workers.isTerminating(uid) || finished(rec.status)) continue
        const excess = await emptyDirLimitEviction(this.effects, rec.sp)
        // The pod may have been edited, removed or refused while it was measured.
        if (excess && this.pods.get(uid) === rec && !rec.rejected) reportEmptyDirExcess(this.effects, rec.sp, excess)
      }
    } catch (err) {
      this.deps.logger.warn('Measuring emptyDirs failed; will retry', {err: errorMessage(err)})
    } finally {
      this.measuring = false
    }
  }

  /** Waits until no worker has anything to do (tests). */
  idle(): Promise<void> {
    return this.workers.idle()
  }

  /** Admits the pod against the pods already admitted; a rejected pod gets a Failed status. */
  private admit(rec: PodRecord): boolean {
    if (!this.deps.node) return true
    const admitted = [...this.pods.values()].filter((r) => r !== rec && !r.rejected).map((r) => r.sp)
    const verdict = admitPod(rec.sp, admitted, this.deps.node)
    if (verdict.admit) {
      delete rec.rejected
      return true
    }
    this.reject(rec, verdict)
    return false
  }

  /**
   * The runtime-dependent fields, checked before each sync of a pod using one (the features are
   * read once, on the first such pod; handleUpdate cannot wait for that read). A refused pod is
   * rejected like at admission; if an edit brought the field to a pod already running, it is killed.
   */
  private async refusedByRuntime(rec: PodRecord): Promise<boolean> {
    const load = this.deps.sync.deps.runtimeSupport
    if (!this.deps.node || !load || !needsRuntimeSupport(rec.sp)) return false
    const verdict = checkRuntimeSupport(rec.sp, await load())
    if (!verdict) return false
    this.reject(rec, verdict)
    if (rec.everSynced) this.workers.update({type: 'kill', uid: rec.sp.pod.metadata.uid, sp: rec.sp, reason: `${verdict.reason}: ${verdict.message}`})
    return true
  }

  private reject(rec: PodRecord, verdict: Rejection): void {
    rec.rejected = verdict
    rec.status = withTransitionTimes(rec.status, rejectedStatus(rec.sp, verdict), this.deps.clock.now())
    this.deps.statusRecorder?.record(rec.sp, rec.status)
    this.effects.events?.emit(podObject(rec.sp.pod), 'Warning', verdict.reason, verdict.message)
    this.deps.logger.warn('Pod rejected by admission', {pod: rec.sp.pod.metadata.name, reason: verdict.reason, message: verdict.message})
  }

  /** The runtime's pods from a read no older than a housekeeping period (the PLEG's, in watch). */
  private recentPods(): Promise<RuntimePod[]> {
    return this.cache.allNewerThan(this.deps.clock.now() - this.opts.housekeepingIntervalMs)
  }

  /**
   * Removes what a pod that never ran left (refused, or its first sync interrupted mid-pull): its
   * status record, its events and their directory.
   */
  private async forgetPodFiles(uid: string): Promise<void> {
    try {
      await this.deps.statusRecorder?.remove(uid)
      await this.effects.events?.forget?.(uid)
      await cleanupVolumes(this.effects, uid)
      await this.effects.fs.removeAll(podDataDir(this.effects.rootDir, uid))
    } catch (err) {
      this.deps.logger.warn('Could not remove the files of a pod that never ran', {uid, err: errorMessage(err)})
    }
  }

  /** The start-after gate of a pod (undefined when it names no pod): what the loop knows of each. */
  private startGate(sp: StaticPod): StartGateCheck | undefined {
    const startAfter = sp.startAfter ?? []
    if (startAfter.length === 0) return undefined
    return (hasSandbox) => startGate({startAfter, hasSandbox, awaited: (name) => this.awaited(name)})
  }

  /** In watch nothing is final: a failed or missing pod may be fixed by an edit, so it stays pending. */
  private awaited(name: string): AwaitedPod {
    const rec = [...this.pods.values()].find((r) => r.sp.manifestName === name)
    if (!rec) return {state: 'unknown'}
    if (rec.rejected) return {state: 'pending', detail: `rejected: ${rec.rejected.reason}`}
    const seen = awaitedFromStatus(rec.status)
    return seen.state === 'ended' ? {state: 'pending', detail: seen.detail} : seen
  }

  /**
   * A pod turned Ready: the pods that start after it are synced now, not at their next resync;
   * every one of them, since a sync in flight may have been held just before (a started pod's
   * extra sync changes nothing).
   */
  private releaseWaitingOn(name: string): void {
    for (const r of this.pods.values()) {
      if (!r.rejected && (r.sp.startAfter ?? []).includes(name)) this.workers.update({type: 'sync', sp: r.sp, reason: 'sync'})
    }
  }

  private jitter(ms: number): number {
    return ms + this.random() * 0.5 * ms
  }

  private async syncOne(sp: StaticPod, reason: string, signal: AbortSignal): Promise<void> {
    const uid = sp.pod.metadata.uid
    const rec = this.pods.get(uid)
    if (!rec) return
    const {sync, clock, logger, metrics} = this.deps
    const started = clock.now()
    try {
      if (await this.refusedByRuntime(rec)) return
      // The cache answers when it was read after the pod's last change; else it reads the runtime.
      // A kill while the sync waits for a slot or runs ends it (signal): the kill comes next.
      const outcome = await this.limit(() => syncPod(sync, rec.sp, rec.waiting, {objects: this.deps.objects(), signal}, rec.lastChangeAt, this.startGate(rec.sp)), signal)
      if (outcome.interrupted) return this.interrupted(rec, signal)
      if (outcome.plan.actions.length > 0) rec.lastChangeAt = clock.now()
      const wasReady = awaitedFromStatus(rec.status).state === 'ready'
      rec.status = withTransitionTimes(rec.status, outcome.status, clock.now())
      if (outcome.held?.reason !== rec.heldBy && outcome.held) logger.info('Pod not created yet', {pod: sp.pod.metadata.name, reason: outcome.held.reason})
      rec.heldBy = outcome.held?.reason
      if (!wasReady && awaitedFromStatus(rec.status).state === 'ready') this.releaseWaitingOn(rec.sp.manifestName)
      rec.everSynced = true
      for (const a of outcome.plan.actions) {
        logger.info(describeAction(a), {pod: sp.pod.metadata.name})
      }
      for (const f of outcome.failures) {
        logger.warn('Sync step failed', {pod: sp.pod.metadata.name, container: f.container || undefined, reason: f.reason, message: f.message})
      }
      const now = clock.now()
      const backOffUntil: Record<string, number> = {}
      for (const b of outcome.plan.blocked) {
        const entry = outcome.backOff.get(b.name)
        if (entry) backOffUntil[b.name] = entry.until
      }
      const until = Object.values(backOffUntil)
      this.deps.statusRecorder?.record(rec.sp, rec.status, {backOffUntil})
      if (until.length > 0) rec.nextSyncAt = Math.min(...until)
      else if (outcome.failures.length > 0) rec.nextSyncAt = now + this.jitter(this.opts.errorBackOffMs)
      else rec.nextSyncAt = now + this.jitter(this.opts.resyncIntervalMs)
      // The pod is synced when its active deadline falls (the kubelet's activeDeadlineHandler).
      const deadline = activeDeadlineAt(rec.sp.pod.spec, outcome.observed?.sandboxes ?? [], sync.instanceStarts?.startOf(rec.sp, now))
      if (deadline !== undefined && deadline > now) rec.nextSyncAt = Math.min(rec.nextSyncAt, deadline)
      if (outcome.failures.length > 0) metrics?.syncError()
      const cs = outcome.status.containerStatuses ?? []
      if (!rec.startReported && cs.length > 0 && cs.every((c) => c.state?.running)) {
        rec.startReported = true
        metrics?.observePodStart((now - rec.firstSeenAt) / 1000)
      }
    } catch (err) {
      if (signal.aborted) return this.interrupted(rec, signal)
      const now = clock.now()
      rec.nextSyncAt = now + this.jitter(this.opts.errorBackOffMs)
      metrics?.syncError()
      logger.error('Error syncing pod, will retry', {pod: sp.pod.metadata.name, err: errorMessage(err)})
      if (rec.status) this.deps.statusRecorder?.record(rec.sp, rec.status, {lastSyncError: {message: errorMessage(err), at: now}})
    } finally {
      metrics?.observeWorker(reason === 'create' || reason === 'update' ? reason : 'sync', (clock.now() - started) / 1000)
    }
  }

  /**
   * An interrupted sync ends quietly: no status, failure or back-off is recorded (the kill that
   * interrupted it follows). The runtime may have changed, so the next view is read afresh.
   */
  private interrupted(rec: PodRecord, signal: AbortSignal): void {
    const now = this.deps.clock.now()
    rec.lastChangeAt = now
    rec.nextSyncAt = now
    this.deps.logger.debug(2, 'Sync interrupted', {pod: rec.sp.pod.metadata.name, reason: abortReason(signal).message})
  }

  private async killOne(work: Extract<PodWork, {type: 'kill'}>): Promise<void> {
    const {sync, logger, clock, metrics} = this.deps
    const started = clock.now()
    try {
      const observed = (await this.cache.getNewerThan(work.uid, clock.now())) ?? work.observed
      sync.prober?.removePod(work.uid)
      sync.instanceStarts?.forget(work.uid)
      // No write of this pod's record may follow (it would bring its directory back).
      await this.deps.statusRecorder?.remove(work.uid)
      if (!observed) {
        // Nothing of it is in the runtime (a first pull was interrupted, say); its files may be.
        await this.forgetPodFiles(work.uid)
        return
      }
      logger.info('Stopping pod', {pod: observed.name, reason: work.reason})
      await terminatePod(this.effects, observed, work.sp?.pod)
    } finally {
      metrics?.observeWorker('kill', (clock.now() - started) / 1000)
    }
  }
}
