// `run`: converge every pod once and wait for its goal, like the kubelet's run-once mode
// (runonce.go) but with a deadline instead of ten fixed retries, back-off for crashing
// containers, and a result per pod. Pods proceed in parallel up to a limit; each pod's steps are
// strictly in order.
import type {PodStatus, StaticPod} from '../api/types.js'
import {evaluateGoal} from '../decide/goal.js'
import {presentImages, syncPod, type Preloaded, type SyncContext, type WaitingReasons} from './sync-pod.js'
import {readRuntimePods} from '../kuberuntime/runtime-reader.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {errorMessage} from '../util/errors.js'
import {admitPod, rejectedStatus} from '../decide/admission.js'
import type {NodeInfo} from '../util/node-info.js'

/** What `run` waits for (CLI.md `--wait`). */
export type WaitFor = 'running' | 'ready' | 'none'

export interface RunOnceOptions {
  wait: WaitFor
  timeoutMs: number
  /** How many pods are converged at the same time. */
  parallelism: number
  /** Admission: the node, and pods already running on it that this run does not own. */
  admission?: {node: NodeInfo; running: readonly StaticPod[]}
  /** This node's name: the first sync of every pod uses one runtime read for all of them. */
  nodeName?: string
  /** Pause between checks while a pod is on its way (containers starting, back-off). */
  pollMs?: number
  signal?: AbortSignal
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
  onProgress: (e: ProgressEvent) => void = () => {},
): Promise<PodRunResult[]> {
  const results: PodRunResult[] = new Array(pods.length)
  // Admission first, in manifest order, as the kubelet admits pods one by one: a rejected pod
  // fails at once and nothing of it is started.
  const toRun: number[] = []
  if (opts.admission) {
    const admitted: StaticPod[] = [...opts.admission.running]
    pods.forEach((sp, i) => {
      const verdict = admitPod(sp, admitted, opts.admission!.node)
      if (verdict.admit) {
        admitted.push(sp)
        toRun.push(i)
        return
      }
      const reason = `rejected: ${verdict.reason}: ${verdict.message}`
      onProgress({pod: sp.pod.metadata.name, kind: 'result', outcome: 'failed', text: reason})
      results[i] = {sp, outcome: 'failed', reason, status: rejectedStatus(sp, verdict)}
    })
  } else pods.forEach((_, i) => toRun.push(i))
  const preload = await preloadAll(ctx, opts.nodeName)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < toRun.length) {
      const i = toRun[next++]!
      const sp = pods[i]!
      const first = preload && {observed: preload.pods.get(sp.pod.metadata.uid), images: preload.images}
      results[i] = await runPod(ctx, sp, opts, onProgress, first)
    }
  }
  await Promise.all(Array.from({length: Math.max(1, Math.min(opts.parallelism, toRun.length))}, worker))
  return results
}

/** One read of the runtime for every pod's first sync; undefined (per-pod reads) if it fails. */
async function preloadAll(ctx: SyncContext, nodeName: string | undefined): Promise<{pods: Map<string, RuntimePod>; images: Set<string>} | undefined> {
  const {runtime} = ctx.deps
  try {
    const [observed, images] = await Promise.all([readRuntimePods(runtime.runtime, nodeName ? {nodeName} : {}), presentImages(runtime.images)])
    return {pods: new Map(observed.map((p) => [p.uid, p])), images}
  } catch {
    return undefined
  }
}

async function runPod(ctx: SyncContext, sp: StaticPod, opts: RunOnceOptions, onProgress: (e: ProgressEvent) => void, preloaded?: Preloaded): Promise<PodRunResult> {
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
      // The preloaded read serves the first sync only: after it, the runtime has changed.
      const first = preloaded
      preloaded = undefined
      outcome = await syncPod(ctx, sp, waiting, first)
    } catch (err) {
      // A runtime error (runtime restarting, deadline) is retried until the deadline.
      lastReason = errorMessage(err)
      onProgress({pod: name, kind: 'waiting', text: `sync failed, retrying: ${lastReason}`})
      if (ctx.clock.now() >= deadline) return finish('timeout', lastReason)
      await ctx.clock.sleep(Math.min(1000, Math.max(0, deadline - ctx.clock.now())), opts.signal)
      continue
    }
    lastStatus = outcome.status
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
