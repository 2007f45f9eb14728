// One sync of one pod: read what the runtime has, decide (computePodActions, pure), apply
// (executor), and report the pod's status afterwards. Used by `run` in a loop and by `watch`'s
// pod workers. A sync that `inputs.signal` interrupts ends quietly: no waiting reason, back-off,
// event or status follows from it, since a kill (or the process's exit) comes next.
import type {PodFacts, PodSpec, PodStatus, StaticPod} from '../api/types.js'
import type {EventSink} from '../api/events.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {Clock} from '../util/clock.js'
import type {BackOffEntry, BlockedContainer, PodActions} from '../decide/actions.js'
import {containerObject, podObject} from '../pod/event-object.js'
import {DEADLINE_EXCEEDED_MESSAGE, DEADLINE_EXCEEDED_REASON} from '../pod/active-deadline.js'
import type {PodProbeResults} from '../pod/probe-results.js'
import type {BackOff} from './backoff.js'
import type {InstanceStarts} from './instance-starts.js'
import {executePlan, type ExecuteResult, type ExecutorDeps, type StepFailure, type SyncInputs} from '../apply/execute-plan.js'
import {computePodActions} from '../decide/compute-pod-actions.js'
import type {RuntimeCache} from '../pleg/runtime-cache.js'
import {generatePodStatus} from '../status/generate.js'
import {refreshProjectedVolumes} from '../volumes/setup.js'
import {newestByName} from '../pod/restart-policy.js'
import {errorMessage} from '../util/errors.js'
import {startGate, type AwaitedPod, type GateVerdict} from '../decide/start-gate.js'
import {heldWaiting, START_AFTER_REASON} from '../status/held.js'

/** What the sync needs of the prober (src/prober/manager.ts implements it). */
export interface ProbeSource {
  syncPod(sp: StaticPod, observed: RuntimePod | undefined): void
  results(uid: string, observed: RuntimePod | undefined): PodProbeResults
  removePod(uid: string): void
}

/** The node's sync services, built once in the composition root. */
export interface SyncContext {
  readonly deps: ExecutorDeps
  /** The one view of the runtime (PLEG-filled in watch). */
  readonly cache: RuntimeCache
  readonly backOff: BackOff
  /** When each pod's current instance started (status.startTime, the active deadline's window). */
  readonly instanceStarts?: InstanceStarts | undefined
  readonly clock: Clock
  readonly prober?: ProbeSource | undefined
}
const NO_PROBES: PodProbeResults = new Map()

function probesOf(ctx: SyncContext, uid: string, observed: RuntimePod | undefined): PodProbeResults {
  return ctx.prober?.results(uid, observed) ?? NO_PROBES
}

/** Waiting reasons kept between syncs of one pod (ErrImagePull, CreateContainerError, …). */
export type WaitingReasons = Map<string, {reason: string; message: string}>

export interface PodSyncOutcome {
  plan: PodActions
  /** The back-off of each waiting container, as the plan saw it. */
  backOff: ReadonlyMap<string, BackOffEntry>
  failures: StepFailure[]
  /** The runtime's view after the sync. */
  observed: RuntimePod | undefined
  status: PodStatus
  /** The signal ended the sync early; its status is the one before it and is not to be recorded. */
  interrupted: boolean
  /** The pod was not created: it starts after pods that are not Ready yet (start-after). */
  held?: Extract<GateVerdict, {open: false}> | undefined
}

/** Start-after: may the pod be created now? Asked only when it has no sandbox yet. */
export type StartGateCheck = (hasSandbox: boolean) => GateVerdict

/** A pod's start-after gate, from what its driver knows of each awaited pod (undefined when it starts after no pod). */
export function gateFor(startAfter: readonly string[] | undefined, awaited: (name: string) => AwaitedPod): StartGateCheck | undefined {
  if (!startAfter || startAfter.length === 0) return undefined
  return (hasSandbox) => startGate({startAfter, hasSandbox, awaited})
}

/**
 * Back-off is per container definition, as the kubelet keys it by name and spec hash: an edit
 * that changes the container starts it at once instead of waiting out the old crash loop.
 */
export function backOffKey(uid: string, container: string, facts: PodFacts): string {
  return `${uid}/${container}/${facts.containers.get(container)?.hash ?? ''}`
}

/** Step failures of a container that the runtime could not create or start. */
const START_FAILURE_REASONS: ReadonlySet<string> = new Set(['CreateContainerError', 'RunContainerError'])

/** The kubelet's events for a container that waits: BackOff, and Failed for image problems. */
function reportBlocked(events: EventSink | undefined, pod: StaticPod['pod'], b: BlockedContainer): void {
  if (!events) return
  const object = containerObject(pod, b.name)
  const {name, namespace, uid} = pod.metadata
  if (b.reason === 'CrashLoopBackOff') {
    events.emit(object, 'Warning', 'BackOff', `Back-off restarting failed container ${b.name} in pod ${name}_${namespace}(${uid})`)
    return
  }
  const image = imageOf(pod.spec, b.name)
  if (b.reason === 'ImagePullBackOff') events.emit(object, 'Normal', 'BackOff', `Back-off pulling image "${image}"`)
  events.emit(object, 'Warning', 'Failed', `Error: ${b.reason}`)
}

/** When the newest instance of a container exited (ms), if it did. */
function lastExit(observed: RuntimePod | undefined, name: string): number | undefined {
  const rc = newestByName(observed?.containers ?? [], name)
  return rc?.state === 'exited' && rc.finishedAt > 0 ? rc.finishedAt : undefined
}

/**
 * Image pulls back off per pod and image, as the kubelet's image manager keys them: an edit to
 * another tag starts afresh, and two containers of one image share one back-off.
 */
export function pullBackOffKey(uid: string, image: string): string {
  return `${uid}/pull/${image}`
}

function imageOf(spec: PodSpec, container: string): string {
  return [...(spec.initContainers ?? []), ...spec.containers].find((c) => c.name === container)?.image ?? ''
}

/** Each container's active crash back-off, counted from its last exit as the kubelet counts it. */
export function podBackOff(backOff: BackOff, sp: StaticPod, now: number, observed?: RuntimePod | undefined): Map<string, BackOffEntry> {
  const out = new Map<string, BackOffEntry>()
  const spec = sp.pod.spec
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    const e = backOff.get(backOffKey(sp.pod.metadata.uid, c.name, sp.facts), now, lastExit(observed, c.name))
    if (e) out.set(c.name, e)
  }
  return out
}

/** Each image's active pull back-off, counted from its last pull failure (not the container's exit). */
export function podPullBackOff(backOff: BackOff, sp: StaticPod, now: number): Map<string, BackOffEntry> {
  const out = new Map<string, BackOffEntry>()
  const spec = sp.pod.spec
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    const image = c.image ?? ''
    if (out.has(image)) continue
    const e = backOff.get(pullBackOffKey(sp.pod.metadata.uid, image), now)
    if (e) out.set(image, e)
  }
  return out
}

/**
 * Computes the plan against the runtime as seen by a read that began after `minTime` (the pod's
 * last change: the cache answers when it is newer), without changing anything.
 */
export async function planPod(ctx: SyncContext, sp: StaticPod, minTime: number): Promise<{plan: PodActions; observed: RuntimePod | undefined; backOff: Map<string, BackOffEntry>}> {
  const [observed, images] = await Promise.all([ctx.cache.getNewerThan(sp.pod.metadata.uid, minTime), ctx.cache.images(minTime)])
  const now = ctx.clock.now()
  const backOff = podBackOff(ctx.backOff, sp, now, observed)
  const pullBackOff = podPullBackOff(ctx.backOff, sp, now)
  const startTime = ctx.instanceStarts?.startOf(sp, now)
  const plan = computePodActions({sp, runtime: observed, images, probes: probesOf(ctx, sp.pod.metadata.uid, observed), backOff, pullBackOff, now, startTime})
  // What each waiting container waits for, as recorded for the next process: its crash back-off,
  // else its image's pull back-off.
  for (const b of plan.blocked) {
    const pulling = b.reason === 'ImagePullBackOff' ? pullBackOff.get(imageOf(sp.pod.spec, b.name)) : undefined
    if (pulling && !backOff.has(b.name)) backOff.set(b.name, pulling)
  }
  return {plan, observed, backOff}
}

/** What a sync did, before its status is generated. */
interface Applied {
  plan: PodActions
  failures: StepFailure[]
  observed: RuntimePod | undefined
  interrupted: boolean
  held?: Extract<GateVerdict, {open: false}> | undefined
}

/** One sync of one pod: plan from a view newer than `minTime`, apply, and the status afterwards. */
export async function syncPod(ctx: SyncContext, sp: StaticPod, waiting: WaitingReasons, inputs: SyncInputs, minTime: number, gate?: StartGateCheck): Promise<PodSyncOutcome> {
  const {plan, observed: before, backOff} = await planPod(ctx, sp, minTime)
  const verdict = gate?.((before?.sandboxes.length ?? 0) > 0)
  const applied = verdict && !verdict.open ? await hold(ctx, sp, plan, before, verdict) : await applyPlan(ctx, sp, plan, before, waiting, inputs)
  // One status for every way a sync ends, generated once from what it did.
  const status = statusAfter(ctx, sp, applied, waiting)
  const {events} = ctx.deps
  if (!applied.interrupted && !applied.held && status.reason === DEADLINE_EXCEEDED_REASON) events?.emit(podObject(sp.pod), 'Normal', DEADLINE_EXCEEDED_REASON, DEADLINE_EXCEEDED_MESSAGE)
  return {...applied, backOff, status}
}

/**
 * Nothing of the pod is created yet (it starts after pods that are not Ready): its manifest is
 * recorded so readers show its labels, annotations and spec; its status says what it waits for.
 */
async function hold(ctx: SyncContext, sp: StaticPod, plan: PodActions, before: RuntimePod | undefined, held: Extract<GateVerdict, {open: false}>): Promise<Applied> {
  const {savePod, logger} = ctx.deps
  await savePod?.(sp).catch((err: unknown) => logger.warn('Could not record the pod manifest', {pod: sp.pod.metadata.name, err: errorMessage(err)}))
  return {plan: {...plan, actions: [], blocked: []}, failures: [], observed: before, interrupted: false, held}
}

/** The plan applied, back-off and waiting reasons updated from its outcome, then what follows the pod's containers. */
async function applyPlan(
  ctx: SyncContext,
  sp: StaticPod,
  plan: PodActions,
  before: RuntimePod | undefined,
  waiting: WaitingReasons,
  inputs: SyncInputs,
): Promise<Applied> {
  let failures: StepFailure[] = []
  let observed = before
  if (plan.actions.length > 0) {
    const result = await executePlan(ctx.deps, sp, plan, before, inputs)
    if (result.interrupted) return {plan, failures: [], observed: before, interrupted: true}
    failures = result.failures
    armBackOff(ctx, sp, plan, before, result)
    for (const f of failures) if (f.container) waiting.set(f.container, {reason: f.reason, message: f.message})
    // What this sync changed is seen by a read that begins after it.
    observed = await ctx.cache.afterOwnChanges(sp.pod.metadata.uid)
  }
  for (const b of plan.blocked) {
    waiting.set(b.name, {reason: b.reason, message: b.message})
    reportBlocked(ctx.deps.events, sp.pod, b)
  }
  // ConfigMap and Secret edits reach containers that already run (only changed files are written).
  if (observed?.sandboxes[0]?.state === 'ready') await refreshProjectedVolumes({...ctx.deps, objects: inputs.objects}, sp.pod)
  // Probe workers follow the containers that now run; status reads their current results.
  ctx.prober?.syncPod(sp, observed)
  // An edit that needed no action (a probe, an annotation) still changes the manifest readers pair
  // the recorded status with: pod.json follows it (written only when it changed).
  if (observed && plan.actions.length === 0) {
    const {savePod, logger} = ctx.deps
    await savePod?.(sp).catch((err: unknown) => logger.warn('Could not record the pod manifest', {pod: sp.pod.metadata.name, err: errorMessage(err)}))
  }
  return {plan, failures, observed, interrupted: false}
}

/** Crash-loop back-off for restarted containers, pull back-off for failed images, from one plan's result. */
function armBackOff(ctx: SyncContext, sp: StaticPod, plan: PodActions, before: RuntimePod | undefined, result: ExecuteResult): void {
  const now = ctx.clock.now()
  for (const a of plan.actions) {
    if (a.type !== 'StartContainer') continue
    const started = result.started.includes(a.name)
    // A restart (not a first start) arms the crash-loop back-off whether it starts or not, as
    // the kubelet's doBackOff does before it tries: a container that cannot start (a wrong
    // command) is retried 10 s, 20 s, … apart, not at every sync.
    const couldNotStart = result.failures.some((f) => f.container === a.name && START_FAILURE_REASONS.has(f.reason))
    // The delay counts from the exit it follows (the kubelet's backOff.Next(key, finishedAt)).
    if (a.restartCount > 0 && (started || couldNotStart)) ctx.backOff.next(backOffKey(sp.pod.metadata.uid, a.name, sp.facts), lastExit(before, a.name) ?? now, 'CrashLoopBackOff')
  }
  // One failed pull backs its image off once, however many containers wait for it; the entry
  // keeps the pull's error, which the waiting message repeats (the kubelet's prevPullErrMsg).
  const failedImages = new Map<string, string>()
  for (const f of result.failures) {
    if (f.reason === 'ErrImagePull' && !failedImages.has(imageOf(sp.pod.spec, f.container))) failedImages.set(imageOf(sp.pod.spec, f.container), f.message)
  }
  for (const [image, message] of failedImages) ctx.backOff.next(pullBackOffKey(sp.pod.metadata.uid, image), now, 'ImagePullBackOff', message)
}

/** The pod's status after a sync: a held pod says what it waits for; an interrupted sync shows the runtime as it was before. */
function statusAfter(ctx: SyncContext, sp: StaticPod, applied: Applied, waiting: WaitingReasons): PodStatus {
  const now = ctx.clock.now()
  const common = {sp, runtime: applied.observed, hostIP: ctx.deps.hostIP, now, startTime: ctx.instanceStarts?.startOf(sp, now)}
  if (applied.held) {
    const held = heldWaiting(sp.pod.spec, applied.held.reason)
    return {...generatePodStatus({...common, probes: NO_PROBES, waiting: held}), reason: START_AFTER_REASON, message: applied.held.reason}
  }
  return generatePodStatus({...common, probes: probesOf(ctx, sp.pod.metadata.uid, applied.observed), waiting})
}
