// `run`: converge every pod once and wait for its goal, like the kubelet's run-once mode
// (runonce.go) but with a deadline instead of ten fixed retries, back-off for crashing
// containers, and a result per pod. Pods proceed in parallel up to a limit; each pod's steps are
// strictly in order.
import type {PodStatus, StaticPod} from '../api/types.js'
import {evaluateGoal} from '../decide/goal.js'
import {syncPod, type SyncContext, type WaitingReasons} from './sync-pod.js'
import type {SyncInputs} from '../apply/execute-plan.js'
import {errorMessage} from '../util/errors.js'
import {admitPod, rejectedStatus} from '../decide/admission.js'
import type {NodeInfo} from '../util/node-info.js'
import type {StatusRecorder} from '../store/status-store.js'
import {withTransitionTimes} from '../status/transitions.js'
import {podObject} from '../pod/event-object.js'

/** What `run` waits for (CLI.md `--wait`). */
export type WaitFor = 'running' | 'ready' | 'none'

export interface RunOnceOptions {
  wait: WaitFor
  timeoutMs: number
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
    pods.forEach((sp, i) => {
      const verdict = admitPod(sp, admitted, admission.node)
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
  const queue = toRun.values()
  const worker = async (): Promise<void> => {
    for (const {i, sp} of queue) results[i] = await runPod(ctx, sp, opts, inputs, onProgress, firstReadAfter)
  }
  await Promise.all(Array.from({length: Math.max(1, Math.min(opts.parallelism, toRun.length))}, worker))
  return results
}

async function runPod(ctx: SyncContext, sp: StaticPod, opts: RunOnceOptions, inputs: SyncInputs, onProgress: (e: ProgressEvent) => void, firstReadAfter: number | undefined): Promise<PodRunResult> {
  const name = sp.pod.metadata.name
  const deadline = ctx.clock.now() + opts.timeoutMs
  const pollMs = opts.pollMs ?? 200
  const waiting: WaitingReasons = new Map()
  let everStarted = false
  let lastStatus: PodStatus = {phase: 'Pending'}
  let lastReason = 'not started'
  const finish = (outcome: PodRunOutcome, reason: string): PodRunResult => {
    onProgress({pod: name, kind: 'result', outcome, text: reason})
    return {sp, outcome, reason, status: lastStatus}
  }
  for (;;) {
    if (opts.signal?.aborted) return finish('failed', 'interrupted')
    let outcome
    try {
      // The shared first read serves the first sync only; every later one sees the runtime as it is now.
      const minTime = firstReadAfter ?? ctx.clock.now() - 1
      firstReadAfter = undefined
      outcome = await syncPod(ctx, sp, waiting, inputs, minTime)
    } catch (err) {
      // A runtime error (runtime restarting, deadline) is retried until the deadline.
      lastReason = errorMessage(err)
      onProgress({pod: name, kind: 'waiting', text: `sync failed, retrying: ${lastReason}`})
      if (lastStatus.containerStatuses) opts.statusRecorder?.record(sp, lastStatus, {lastSyncError: {message: lastReason, at: ctx.clock.now()}})
      if (ctx.clock.now() >= deadline) return finish('timeout', lastReason)
      await ctx.clock.sleep(Math.min(1000, Math.max(0, deadline - ctx.clock.now())), opts.signal)
      continue
    }
    lastStatus = withTransitionTimes(lastStatus, outcome.status, ctx.clock.now())
    opts.statusRecorder?.record(sp, lastStatus)
    const permanent = outcome.failures.find((f) => f.permanent)
    if (permanent) return finish('failed', `${permanent.container ? `container "${permanent.container}" ` : ''}${permanent.reason}: ${permanent.message}`)
    everStarted ||= allStarted(lastStatus)
    const goal = evaluateGoal(sp, lastStatus, opts.wait, everStarted)
    if (goal.state === 'done') return finish('done', goal.reason)
    if (goal.state === 'failed') return finish('failed', goal.reason)
    lastReason = goal.reason
    const now = ctx.clock.now()
    if (now >= deadline) return finish('timeout', `timed out: ${lastReason}`)
    onProgress({pod: name, kind: 'waiting', text: lastReason})
    await ctx.clock.sleep(Math.min(pollMs, deadline - now), opts.signal)
  }
}

/** Every container of the spec has been created at least once (for `--wait none`). */
function allStarted(status: PodStatus): boolean {
  const cs = status.containerStatuses ?? []
  return cs.length > 0 && cs.every((c) => Boolean(c.containerID))
}
