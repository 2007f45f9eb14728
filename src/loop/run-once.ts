// `run`: converge every pod once and wait for its goal, like the kubelet's run-once mode
// (runonce.go) but with a deadline instead of ten fixed retries, back-off for crashing
// containers, and a result per pod. Pods proceed in parallel up to a limit; each pod's steps are
// strictly in order. A pod that reached its outcome gets the garbage collection `watch` runs
// periodically, since `run` keeps old sandboxes for the pod's history as `watch` does.
import type {PodStatus, StaticPod} from '../api/types.js'
import {evaluateGoal, type Goal} from '../decide/goal.js'
import {syncPod, type StartGateCheck, type SyncContext, type WaitingReasons} from './sync-pod.js'
import type {StepFailure, SyncInputs} from '../apply/execute-plan.js'
import {removeGarbage} from '../apply/collect-garbage.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {errorMessage} from '../util/errors.js'
import {admitPod, rejectedStatus} from '../decide/admission.js'
import {needsRuntimeSupport} from '../decide/runtime-support.js'
import type {NodeInfo} from '../util/node-info.js'
import type {StatusRecorder} from '../store/status-store.js'
import {withTransitionTimes} from '../status/transitions.js'
import {podObject} from '../pod/event-object.js'
import {startOrder} from './start-order.js'
import {awaitedFromStatus, startGate, type AwaitedPod} from '../decide/start-gate.js'
import {emptyDirLimitEviction, reportEmptyDirExcess} from '../apply/evict.js'

/** How often `run` measures a waiting pod's emptyDirs against their sizeLimit, to report an excess (watch: every 10s). */
const EVICTION_MEASURE_MS = 2_000

/** How long past its deadline a sync in flight may go on before it is interrupted. */
const DEADLINE_GRACE_MS = 2_000

/** What `run` waits for (CLI.md `--wait`). */
export type WaitFor = 'running' | 'ready' | 'none'

export interface RunOnceOptions {
  wait: WaitFor
  timeoutMs: number
  /**
   * How long each container that must stay up has to have run (and the pod been Ready, with
   * --wait ready) before it counts; 0 takes the first sighting (CLI.md `--stable-for`).
   */
  stableForMs?: number
  /** How many pods are converged at the same time. */
  parallelism: number
  /** Admission: the node, and pods already running on it that this run does not own. */
  admission?: {node: NodeInfo; running: readonly StaticPod[]}
  /**
   * The first sync of every pod may use a view of the runtime read after this time (default: the
   * start of the run), so that one read serves them all; later syncs read afresh.
   */
  firstReadAfter?: number
  /** Pause between checks while a pod is on its way (containers starting, back-off). */
  pollMs?: number
  signal?: AbortSignal | undefined
  /** Where each pod's computed status goes while the run manages it (the status store). */
  statusRecorder?: StatusRecorder | undefined
}

export type PodRunOutcome = 'done' | 'failed' | 'timeout'

export interface PodRunResult {
  sp: StaticPod
  outcome: PodRunOutcome
  reason: string
  status: PodStatus
}

export type ProgressEvent =
  | {pod: string; kind: 'action'; text: string}
  | {pod: string; kind: 'waiting'; text: string}
  | {pod: string; kind: 'result'; outcome: PodRunOutcome; text: string}

export async function runOnce(
  ctx: SyncContext,
  pods: StaticPod[],
  opts: RunOnceOptions,
  inputs: SyncInputs,
  onProgress: (e: ProgressEvent) => void = () => {},
): Promise<PodRunResult[]> {
  const firstReadAfter = opts.firstReadAfter ?? ctx.clock.now() - 1
  const {events} = ctx.deps
  const results: PodRunResult[] = new Array(pods.length)
  // Admission first, in manifest order, as the kubelet admits pods one by one: a rejected pod
  // fails at once and nothing of it is started.
  const toRun: {i: number; sp: StaticPod}[] = []
  const admission = opts.admission
  if (admission) {
    const admitted: StaticPod[] = [...admission.running]
    // The runtime's features are read (one Status call) only when some pod uses a field needing them.
    const load = ctx.deps.runtimeSupport
    const support = load && pods.some(needsRuntimeSupport) ? await load() : undefined
    pods.forEach((sp, i) => {
      const verdict = admitPod(sp, admitted, admission.node, support)
      if (verdict.admit) {
        admitted.push(sp)
        toRun.push({i, sp})
        return
      }
      const reason = `rejected: ${verdict.reason}: ${verdict.message}`
      onProgress({pod: sp.pod.metadata.name, kind: 'result', outcome: 'failed', text: reason})
      const status = withTransitionTimes(undefined, rejectedStatus(sp, verdict), ctx.clock.now())
      opts.statusRecorder?.record(sp, status)
      events?.emit(podObject(sp.pod), 'Warning', verdict.reason, verdict.message)
      results[i] = {sp, outcome: 'failed', reason, status}
    })
  } else pods.forEach((sp, i) => toRun.push({i, sp}))
  const order = startAfterOrder(pods, results)
  // Pods are taken after the pods they start after, so a worker never waits on one not yet begun.
  const queue = startOrder(toRun).values()
  const worker = async (): Promise<void> => {
    for (const {i, sp} of queue) results[i] = await runPod(ctx, sp, opts, inputs, onProgress, firstReadAfter, order)
  }
  await Promise.all(Array.from({length: Math.max(1, Math.min(opts.parallelism, toRun.length))}, worker))
  return results
}

/** What the run knows of each pod that another starts after (start-after), by manifest name. */
interface StartAfterOrder {
  /** The pods some other pod starts after: they are awaited until Ready, whatever --wait says. */
  awaitedNames: ReadonlySet<string>
  states: Map<string, AwaitedPod>
}

function startAfterOrder(pods: readonly StaticPod[], results: readonly (PodRunResult | undefined)[]): StartAfterOrder {
  const awaitedNames = new Set(pods.flatMap((sp) => sp.startAfter ?? []))
  const states = new Map<string, AwaitedPod>()
  pods.forEach((sp, i) => {
    const rejected = results[i]
    states.set(sp.manifestName, rejected ? {state: 'ended', detail: rejected.reason} : {state: 'pending', detail: 'not started yet'})
  })
  return {awaitedNames, states}
}

function gateOf(sp: StaticPod, order: StartAfterOrder): StartGateCheck | undefined {
  const startAfter = sp.startAfter ?? []
  if (startAfter.length === 0) return undefined
  return (hasSandbox) => startGate({startAfter, hasSandbox, awaited: (n) => order.states.get(n) ?? {state: 'unknown'}})
}

async function runPod(ctx: SyncContext, sp: StaticPod, opts: RunOnceOptions, inputs: SyncInputs, onProgress: (e: ProgressEvent) => void, firstReadAfter: number | undefined, order: StartAfterOrder): Promise<PodRunResult> {
  const deadline = ctx.clock.now() + opts.timeoutMs
  // A sync still in flight shortly after the deadline (a slow pull, a stalled runtime call) is
  // interrupted as Ctrl-C does: the run ends by its deadline whatever the runtime is doing. The
  // grace lets a sync that began before the deadline report what it reached.
  const overdue = new AbortController()
  const cancelDeadline = ctx.clock.after(Math.max(0, opts.timeoutMs) + DEADLINE_GRACE_MS, () => overdue.abort())
  try {
    return await runPodUntil(ctx, sp, {...opts, signal: opts.signal ? AbortSignal.any([opts.signal, overdue.signal]) : overdue.signal}, inputs, onProgress, firstReadAfter, order, deadline, overdue.signal)
  } finally {
    cancelDeadline()
  }
}

async function runPodUntil(ctx: SyncContext, sp: StaticPod, opts: RunOnceOptions, inputs: SyncInputs, onProgress: (e: ProgressEvent) => void, firstReadAfter: number | undefined, order: StartAfterOrder, deadline: number, overdue: AbortSignal): Promise<PodRunResult> {
  const name = sp.pod.metadata.name
  const gate = gateOf(sp, order)
  // A pod others start after has reached its goal only when Ready: they wait for that.
  const wait: WaitFor = order.awaitedNames.has(sp.manifestName) ? 'ready' : opts.wait
  const pollMs = opts.pollMs ?? 200
  const waiting: WaitingReasons = new Map()
  let everStarted = false
  let lastStatus: PodStatus = {phase: 'Pending'}
  let lastReason = 'not started'
  let nextMeasureAt = 0
  let readySince: number | undefined
  const finish = (outcome: PodRunOutcome, reason: string): PodRunResult => {
    const seen = awaitedFromStatus(lastStatus)
    order.states.set(sp.manifestName, seen.state === 'ready' ? seen : {state: 'ended', detail: `${outcome}: ${reason}`})
    onProgress({pod: name, kind: 'result', outcome, text: reason})
    return {sp, outcome, reason, status: lastStatus}
  }
  for (;;) {
    if (overdue.aborted) return finish('timeout', `timed out: ${lastReason}`)
    if (opts.signal?.aborted) return finish('failed', 'interrupted')
    let outcome
    try {
      // The shared first read serves the first sync only; every later one sees the runtime as it is now.
      const minTime = firstReadAfter ?? ctx.clock.now() - 1
      firstReadAfter = undefined
      // The run's signal (Ctrl-C) interrupts a sync in flight: a stalled pull ends at once.
      outcome = await syncPod(ctx, sp, waiting, {...inputs, signal: opts.signal}, minTime, gate)
    } catch (err) {
      // A runtime error (runtime restarting, deadline) is retried until the deadline.
      lastReason = errorMessage(err)
      onProgress({pod: name, kind: 'waiting', text: `sync failed, retrying: ${lastReason}`})
      if (lastStatus.containerStatuses) opts.statusRecorder?.record(sp, lastStatus, {lastSyncError: {message: lastReason, at: ctx.clock.now()}})
      if (ctx.clock.now() >= deadline) return finish('timeout', lastReason)
      await ctx.clock.sleep(Math.min(1000, Math.max(0, deadline - ctx.clock.now())), opts.signal)
      continue
    }
    if (outcome.interrupted) return overdue.aborted ? finish('timeout', `timed out: ${lastReason}`) : finish('failed', 'interrupted')
    lastStatus = withTransitionTimes(lastStatus, outcome.status, ctx.clock.now())
    opts.statusRecorder?.record(sp, lastStatus)
    order.states.set(sp.manifestName, awaitedFromStatus(lastStatus))
    if (outcome.held) {
      // Not created yet: it waits for the pods it starts after, within the run's deadline.
      if (outcome.held.final) return finish('failed', outcome.held.reason)
      if (ctx.clock.now() >= deadline) return finish('timeout', `timed out: ${outcome.held.reason}`)
      onProgress({pod: name, kind: 'waiting', text: outcome.held.reason})
      await ctx.clock.sleep(Math.min(pollMs, deadline - ctx.clock.now()), opts.signal)
      continue
    }
    const active = lastStatus.phase !== 'Succeeded' && lastStatus.phase !== 'Failed'
    if (ctx.deps.diskUsage && active && ctx.clock.now() >= nextMeasureAt) {
      // The eviction manager's emptyDir rule, while the run waits for this pod: reported, never evicted.
      nextMeasureAt = ctx.clock.now() + EVICTION_MEASURE_MS
      const excess = await emptyDirLimitEviction(ctx.deps, sp)
      if (excess) reportEmptyDirExcess(ctx.deps, sp, excess)
    }
    everStarted ||= allStarted(lastStatus)
    const now = ctx.clock.now()
    readySince = isReady(lastStatus) ? (readySince ?? now) : undefined
    const goal = evaluateGoal({sp, status: lastStatus, wait, started: everStarted, now, stableForMs: opts.stableForMs ?? 0, readySince})
    const end = endOf(outcome.failures, goal, deadline - now)
    if (end.outcome) {
      // The pod has its outcome and this run changes it no more: what the kubelet's GC would drop
      // of its history (old sandboxes, older dead containers) goes now, so nothing piles up.
      await collectPodGarbage(ctx, outcome.observed)
      return finish(end.outcome, end.reason)
    }
    lastReason = end.reason
    onProgress({pod: name, kind: 'waiting', text: lastReason})
    await ctx.clock.sleep(Math.min(pollMs, deadline - now), opts.signal)
  }
}

/** The pod's outcome after a sync (a permanent failure, its goal, or the deadline), or why it is not there yet. */
function endOf(failures: readonly StepFailure[], g: Goal, left: number): {outcome?: PodRunOutcome; reason: string} {
  const permanent = failures.find((f) => f.permanent)
  if (permanent && (permanent.reason === 'RunContainerError' || permanent.reason === 'CreateContainerError')) {
    // A container the runtime cannot create or start (a wrong command): retrying shows the same.
    return {outcome: 'failed', reason: `container "${permanent.container}" cannot start: ${permanent.reason} (${permanent.message})`}
  }
  if (permanent) return {outcome: 'failed', reason: `${permanent.container ? `container "${permanent.container}" ` : ''}${permanent.reason}: ${permanent.message}`}
  if (g.state === 'done' || g.state === 'failed') return {outcome: g.state, reason: g.reason}
  if (left <= 0) return {outcome: 'timeout', reason: `timed out: ${g.reason}`}
  return {reason: g.reason}
}

/** GC of one pod of the run; a failure only delays it (the next run or `watch` collects it). */
async function collectPodGarbage(ctx: SyncContext, observed: RuntimePod | undefined): Promise<void> {
  if (!observed) return
  try {
    await removeGarbage(ctx.deps, [observed], new Set([observed.uid]))
  } catch (err) {
    ctx.deps.logger.warn('Garbage collection failed; a later run collects it', {pod: observed.name, err: errorMessage(err)})
  }
}

function isReady(status: PodStatus): boolean {
  return status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true
}

/** Every container of the spec has been created at least once (for `--wait none`). */
function allStarted(status: PodStatus): boolean {
  const cs = status.containerStatuses ?? []
  return cs.length > 0 && cs.every((c) => Boolean(c.containerID))
}
