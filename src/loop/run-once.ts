// `run`: converge every pod once and wait for its goal, like the kubelet's run-once mode
// (runonce.go) but with a deadline instead of ten fixed retries, back-off for crashing
// containers, and a result per pod. What happens to a pod (admission, rejection, sync and its
// record, the emptyDir report) is the pod lifecycle's, as in `watch` (pod-lifecycle.ts); this
// driver keeps what only `run` does: when to stop (goal, permanent failure, deadline) and what to
// wait for (--wait, --stable-for, the pods it starts after). Pods proceed in parallel up to a
// limit; each pod's steps are strictly in order. A pod that reached its outcome gets the garbage
// collection `watch` runs periodically, since `run` keeps old sandboxes for the pod's history.
import type {PodStatus, StaticPod} from '../api/types.js'
import {evaluateGoal, type Goal} from '../decide/goal.js'
import type {SyncContext} from './sync-pod.js'
import type {StepFailure, SyncInputs} from '../apply/execute-plan.js'
import {removeGarbage} from '../apply/collect-garbage.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {errorMessage} from '../util/errors.js'
import type {NodeInfo} from '../util/node-info.js'
import type {StatusRecorder} from '../store/status-store.js'
import {startOrder} from './start-order.js'
import {awaitedFromStatus} from '../decide/start-gate.js'
import {gateOf, startAfterOrder, type StartAfterOrder} from './run-start-after.js'
import {newPodState, PodLifecycle, type PodState} from './pod-lifecycle.js'

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
  const lifecycle = new PodLifecycle({sync: ctx, statusRecorder: opts.statusRecorder})
  const results: PodRunResult[] = new Array(pods.length)
  const toRun = await admitAll(lifecycle, pods, opts.admission, results, onProgress)
  const order = startAfterOrder(pods, Array.from(results, (r) => r?.reason))
  // Pods are taken after the pods they start after, so a worker never waits on one not yet begun.
  const queue = startOrder(toRun).values()
  const worker = async (): Promise<void> => {
    for (const {i, sp} of queue) results[i] = await runPod({ctx, lifecycle, sp, opts, inputs, onProgress, order}, firstReadAfter)
  }
  await Promise.all(Array.from({length: Math.max(1, Math.min(opts.parallelism, toRun.length))}, worker))
  return results
}

/**
 * Admission first, in manifest order, as the kubelet admits pods one by one: a rejected pod fails
 * at once (its result is set) and nothing of it is started. The runtime's features are read (one
 * Status call) only when some pod uses a field needing them. Returns the pods to run.
 */
async function admitAll(lifecycle: PodLifecycle, pods: readonly StaticPod[], admission: RunOnceOptions['admission'], results: PodRunResult[], onProgress: (e: ProgressEvent) => void): Promise<{i: number; sp: StaticPod}[]> {
  if (!admission) return pods.map((sp, i) => ({i, sp}))
  const toRun: {i: number; sp: StaticPod}[] = []
  const admitted: StaticPod[] = [...admission.running]
  const support = await lifecycle.supportFor(pods)
  pods.forEach((sp, i) => {
    const state = newPodState()
    const refused = lifecycle.admit(sp, state, admitted, admission.node, support)
    if (!refused) {
      admitted.push(sp)
      toRun.push({i, sp})
      return
    }
    const reason = `rejected: ${refused.reason}: ${refused.message}`
    onProgress({pod: sp.pod.metadata.name, kind: 'result', outcome: 'failed', text: reason})
    results[i] = {sp, outcome: 'failed', reason, status: state.status ?? {phase: 'Failed'}}
  })
  return toRun
}

/** What the run of one pod works with. */
interface PodRun {
  ctx: SyncContext
  lifecycle: PodLifecycle
  sp: StaticPod
  opts: RunOnceOptions
  inputs: SyncInputs
  onProgress: (e: ProgressEvent) => void
  order: StartAfterOrder
}

/** What the run has seen of its pod so far. */
interface Seen {
  readonly state: PodState
  everStarted: boolean
  /** Since when the pod has been Ready without a break, if it is Ready now. */
  readySince?: number | undefined
  lastReason: string
  nextMeasureAt: number
}

const NOT_SYNCED: PodStatus = {phase: 'Pending'}

async function runPod(run: PodRun, firstReadAfter: number | undefined): Promise<PodRunResult> {
  const {clock} = run.ctx
  const {timeoutMs, signal} = run.opts
  const deadline = clock.now() + timeoutMs
  // A sync still in flight shortly after the deadline (a slow pull, a stalled runtime call) is
  // interrupted as Ctrl-C does: the run ends by its deadline whatever the runtime is doing. The
  // grace lets a sync that began before the deadline report what it reached.
  const overdue = new AbortController()
  const cancelDeadline = clock.after(Math.max(0, timeoutMs) + DEADLINE_GRACE_MS, () => overdue.abort())
  try {
    const opts = {...run.opts, signal: signal ? AbortSignal.any([signal, overdue.signal]) : overdue.signal}
    return await runPodUntil({...run, opts}, firstReadAfter, deadline, overdue.signal)
  } finally {
    cancelDeadline()
  }
}

/** Syncs the pod again and again (the lifecycle's sync) until it reaches its goal, fails for good, or the deadline passes. */
async function runPodUntil(run: PodRun, firstReadAfter: number | undefined, deadline: number, overdue: AbortSignal): Promise<PodRunResult> {
  const {sp, opts, lifecycle, onProgress, order} = run
  const {clock} = run.ctx
  const name = sp.pod.metadata.name
  const gate = gateOf(sp.startAfter, order)
  // A pod others start after has reached its goal only when Ready: they wait for that.
  const wait: WaitFor = order.awaitedNames.has(sp.manifestName) ? 'ready' : opts.wait
  const pollMs = opts.pollMs ?? 200
  const seen: Seen = {state: newPodState(), everStarted: false, lastReason: 'not started', nextMeasureAt: 0}
  const finish = (outcome: PodRunOutcome, reason: string): PodRunResult => finishPod(run, seen, outcome, reason)
  const pause = (ms: number): Promise<void> => clock.sleep(Math.min(ms, Math.max(0, deadline - clock.now())), opts.signal)
  for (;;) {
    if (overdue.aborted) return finish('timeout', `timed out: ${seen.lastReason}`)
    if (opts.signal?.aborted) return finish('failed', 'interrupted')
    let outcome
    try {
      // The shared first read serves the first sync only; every later one sees the runtime as it is now.
      const minTime = firstReadAfter ?? clock.now() - 1
      firstReadAfter = undefined
      // The run's signal (Ctrl-C) interrupts a sync in flight: a stalled pull ends at once.
      outcome = await lifecycle.sync(sp, seen.state, {...run.inputs, signal: opts.signal}, minTime, gate)
    } catch (err) {
      // A runtime error (runtime restarting, deadline) is retried until the deadline.
      seen.lastReason = errorMessage(err)
      onProgress({pod: name, kind: 'waiting', text: `sync failed, retrying: ${seen.lastReason}`})
      lifecycle.syncFailed(sp, seen.state, err)
      if (clock.now() >= deadline) return finish('timeout', seen.lastReason)
      await pause(1000)
      continue
    }
    if (outcome.interrupted) return overdue.aborted ? finish('timeout', `timed out: ${seen.lastReason}`) : finish('failed', 'interrupted')
    order.states.set(sp.manifestName, awaitedFromStatus(seen.state.status))
    if (outcome.held) {
      // Not created yet: it waits for the pods it starts after, within the run's deadline.
      if (outcome.held.final) return finish('failed', outcome.held.reason)
      if (clock.now() >= deadline) return finish('timeout', `timed out: ${outcome.held.reason}`)
      onProgress({pod: name, kind: 'waiting', text: outcome.held.reason})
      await pause(pollMs)
      continue
    }
    await measureEmptyDirs(run, seen)
    const now = clock.now()
    const end = endOf(outcome.failures, goalOf(run, seen, wait, now), deadline - now)
    if (end.outcome) {
      // The pod has its outcome and this run changes it no more: what the kubelet's GC would drop
      // of its history (old sandboxes, older dead containers) goes now, so nothing piles up.
      await collectPodGarbage(run.ctx, outcome.observed)
      return finish(end.outcome, end.reason)
    }
    seen.lastReason = end.reason
    onProgress({pod: name, kind: 'waiting', text: seen.lastReason})
    await pause(pollMs)
  }
}

/** The pod's result; the pods that start after it learn how it ended. */
function finishPod(run: PodRun, seen: Seen, outcome: PodRunOutcome, reason: string): PodRunResult {
  const status = seen.state.status ?? NOT_SYNCED
  const awaited = awaitedFromStatus(status)
  run.order.states.set(run.sp.manifestName, awaited.state === 'ready' ? awaited : {state: 'ended', detail: `${outcome}: ${reason}`})
  run.onProgress({pod: run.sp.pod.metadata.name, kind: 'result', outcome, text: reason})
  return {sp: run.sp, outcome, reason, status}
}

/** Where the pod stands against what the run waits for, after a sync. */
function goalOf(run: PodRun, seen: Seen, wait: WaitFor, now: number): Goal {
  const status = seen.state.status ?? NOT_SYNCED
  seen.everStarted ||= allStarted(status)
  seen.readySince = isReady(status) ? (seen.readySince ?? now) : undefined
  return evaluateGoal({sp: run.sp, status, wait, started: seen.everStarted, now, stableForMs: run.opts.stableForMs ?? 0, readySince: seen.readySince})
}

/** The eviction manager's emptyDir rule while the run waits for an active pod: reported, never evicted. */
async function measureEmptyDirs(run: PodRun, seen: Seen): Promise<void> {
  const phase = seen.state.status?.phase
  const now = run.ctx.clock.now()
  if (phase === 'Succeeded' || phase === 'Failed' || now < seen.nextMeasureAt) return
  seen.nextMeasureAt = now + EVICTION_MEASURE_MS
  await run.lifecycle.checkEmptyDirs(run.sp)
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
  const reason = withPodFailure(g.reason, failures)
  if (left <= 0) return {outcome: 'timeout', reason: `timed out: ${reason}`}
  return {reason}
}

/**
 * A failure of the pod itself (its sandbox, its directory on a full disk) leaves no trace in the
 * status, whose containers only wait in ContainerCreating (the kubelet records it as an event): the
 * reason names it, so that progress and a timeout say why the pod is still Pending.
 */
function withPodFailure(reason: string, failures: readonly StepFailure[]): string {
  const f = failures.find((x) => x.container === '')
  return f ? `${reason}: ${f.reason}: ${f.message}` : reason
}

/** GC of one pod of the run; a failure only delays it (the next run or `watch` collects it). */
async function collectPodGarbage(ctx: SyncContext, observed: RuntimePod | undefined): Promise<void> {
  if (!observed) return
  try {
    await removeGarbage(ctx.deps, [observed], new Set([observed.uid]))
  } catch (err) {
    const {logger} = ctx.deps
    logger.warn('Garbage collection failed; a later run collects it', {pod: observed.name, err: errorMessage(err)})
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
