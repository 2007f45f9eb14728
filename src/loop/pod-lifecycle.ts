// One pod's lifecycle, the same for both drivers (`run` converges once, `watch` forever), as the
// kubelet's pod workers are the one place a pod's life is tracked: admit or reject, sync and
// record what the sync reached, report an emptyDir over its limit, stop, forget. Each behaviour
// exists once, here; the drivers decide only when to call them and what to wait for
// (STYLE.md "One lifecycle, two drivers"). Nothing here logs a pod's progress: `run` shows it
// through its progress events, `watch` through its log.
import type {PodStatus, StaticPod} from '../api/types.js'
import type {NodeInfo} from '../util/node-info.js'
import type {StatusRecorder} from '../store/status-store.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {ExecutorDeps, SyncInputs} from '../apply/execute-plan.js'
import {admitPod, checkRuntimeSupport, rejectedStatus, type Rejection} from '../decide/admission.js'
import {needsRuntimeSupport, type RuntimeSupport} from '../decide/runtime-support.js'
import {withTransitionTimes} from '../status/transitions.js'
import {podObject} from '../pod/event-object.js'
import {podDataDir} from '../kuberuntime/naming.js'
import {cleanupVolumes} from '../volumes/prepare.js'
import {terminatePod} from '../apply/terminate.js'
import {emptyDirLimitEviction, reportEmptyDirExcess} from '../apply/evict.js'
import {errorMessage} from '../util/errors.js'
import {syncPod, type PodSyncOutcome, type StartGateCheck, type SyncContext, type WaitingReasons} from './sync-pod.js'

/** What the lifecycle keeps of one pod between its syncs. */
export interface PodState {
  readonly waiting: WaitingReasons
  /** The pod's last status (a sync's or its rejection's), with its transition times. */
  status?: PodStatus | undefined
}

export function newPodState(): PodState {
  return {waiting: new Map()}
}

export interface PodLifecycleDeps {
  /** The node's sync services. */
  sync: SyncContext
  /** Where each pod's status goes for every other reader (the status store), while this driver manages the pod. */
  statusRecorder?: StatusRecorder | undefined
}

export class PodLifecycle {
  private readonly ctx: SyncContext
  /** The node's effects: events, runtime features, files, the eviction manager's meter. */
  private readonly effects: ExecutorDeps
  private readonly recorder: StatusRecorder | undefined

  constructor(deps: PodLifecycleDeps) {
    this.ctx = deps.sync
    this.effects = deps.sync.deps
    this.recorder = deps.statusRecorder
  }

  /**
   * Admission against the pods already admitted (the kubelet admits pods one by one). With
   * `support`, the runtime-dependent fields are checked too; without it, checkRuntime does that
   * later. A refused pod is rejected: the refusal is returned.
   */
  admit(sp: StaticPod, state: PodState, admitted: readonly StaticPod[], node: NodeInfo, support?: RuntimeSupport): Rejection | undefined {
    const verdict = admitPod(sp, admitted, node, support)
    if (verdict.admit) return undefined
    this.reject(sp, state, verdict)
    return verdict
  }

  /**
   * The runtime-dependent fields of a pod admitted without the runtime's features: they are read
   * (once per process) only for a pod using such a field. A refused pod is rejected.
   */
  async checkRuntime(sp: StaticPod, state: PodState): Promise<Rejection | undefined> {
    const load = this.effects.runtimeSupport
    if (!load || !needsRuntimeSupport(sp.pod)) return undefined
    const verdict = checkRuntimeSupport(sp.pod, await load())
    if (verdict) this.reject(sp, state, verdict)
    return verdict
  }

  /** The runtime's features, read only when one of `pods` needs them. */
  async supportFor(pods: readonly StaticPod[]): Promise<RuntimeSupport | undefined> {
    const load = this.effects.runtimeSupport
    return load && pods.some((sp) => needsRuntimeSupport(sp.pod)) ? await load() : undefined
  }

  /** The one writer of a rejection: the kubelet's Failed status, recorded, and a Warning event. */
  private reject(sp: StaticPod, state: PodState, verdict: Rejection): void {
    state.status = withTransitionTimes(state.status, rejectedStatus(sp, verdict), this.ctx.clock.now())
    this.recorder?.record(sp, state.status)
    this.effects.events?.emit(podObject(sp.pod), 'Warning', verdict.reason, verdict.message)
  }

  /**
   * One sync of the pod, and its status recorded with the back-off each waiting container has
   * (so that the next process keeps it). An interrupted sync records nothing: a kill or the
   * process's exit follows.
   */
  async sync(sp: StaticPod, state: PodState, inputs: SyncInputs, minTime: number, gate?: StartGateCheck): Promise<PodSyncOutcome> {
    const outcome = await syncPod(this.ctx, sp, state.waiting, inputs, minTime, gate)
    if (outcome.interrupted) return outcome
    state.status = withTransitionTimes(state.status, outcome.status, this.ctx.clock.now())
    this.recorder?.record(sp, state.status, {backOffUntil: backOffUntil(outcome)})
    return outcome
  }

  /** A sync that failed as a whole (the runtime away): the last status is kept, with the error beside it. */
  syncFailed(sp: StaticPod, state: PodState, err: unknown): void {
    if (state.status) this.recorder?.record(sp, state.status, {lastSyncError: {message: errorMessage(err), at: this.ctx.clock.now()}})
  }

  /**
   * The eviction manager's emptyDir rule: the pod's emptyDirs are measured, and one over its
   * sizeLimit is reported, never evicted (static pods are critical: apply/evict.ts).
   * `stillWanted` is asked after the measure, which takes a while: the pod may have gone meanwhile.
   */
  async checkEmptyDirs(sp: StaticPod, stillWanted: () => boolean = () => true): Promise<void> {
    const excess = await emptyDirLimitEviction(this.effects, sp)
    if (excess && stillWanted()) reportEmptyDirExcess(this.effects, sp, excess)
  }

  /**
   * Stops the pod (`observed`: the runtime's latest view of it) and forgets it: its probes, its
   * instance and its record. `pod` gives the grace periods and hooks when its manifest is known.
   */
  async stop(uid: string, observed: RuntimePod | undefined, pod: StaticPod['pod'] | undefined): Promise<void> {
    const {prober, instanceStarts} = this.ctx
    prober?.removePod(uid)
    instanceStarts?.forget(uid)
    // No write of this pod's record may follow (it would bring its directory back).
    await this.recorder?.remove(uid)
    // Nothing of it is in the runtime (a first pull was interrupted, say); its files may be.
    if (!observed) return this.forget(uid)
    await terminatePod(this.effects, observed, pod)
  }

  /**
   * Removes what a pod that never ran left (refused, or its first sync interrupted mid-pull): its
   * status record, its events, its volumes and their directory.
   */
  async forget(uid: string): Promise<void> {
    const {effects} = this
    try {
      await this.recorder?.remove(uid)
      await effects.events?.forget?.(uid)
      await cleanupVolumes(effects, uid)
      await effects.fs.removeAll(podDataDir(effects.rootDir, uid))
    } catch (err) {
      effects.logger.warn('Could not remove the files of a pod that never ran', {uid, err: errorMessage(err)})
    }
  }
}

/** When each backed-off container of the sync may start again, by name. */
export function backOffUntil(outcome: PodSyncOutcome): Record<string, number> {
  const until: Record<string, number> = {}
  for (const b of outcome.plan.blocked) {
    const entry = outcome.backOff.get(b.name)
    if (entry) until[b.name] = entry.until
  }
  return until
}
