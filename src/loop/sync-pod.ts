// One sync of one pod: read what the runtime has, decide (computePodActions, pure), apply
// (executor), and report the pod's status afterwards. Used by `run` in a loop and by `watch`'s
// pod workers.
import type {PodStatus, StaticPod} from '../api/types.js'
import type {ImageService} from '../cri/port.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {Clock} from '../util/clock.js'
import type {BackOffEntry, PodActions} from '../decide/actions.js'
import type {PodProbeResults} from '../pod/probe-results.js'
import type {BackOff} from './backoff.js'
import {executePlan, type ExecutorDeps, type StepFailure} from '../apply/executor.js'
import {computePodActions} from '../decide/compute-pod-actions.js'
import {readRuntimePod} from '../kuberuntime/runtime-reader.js'
import {generatePodStatus} from '../status/generate.js'
import {normalizeImageRef} from '../images/reference.js'
import {containerHash} from '../kuberuntime/hash.js'
import {refreshProjectedVolumes} from '../apply/volumes/setup.js'

/** What the sync needs of the prober (src/prober/manager.ts implements it). */
export interface ProbeSource {
  syncPod(sp: StaticPod, observed: RuntimePod | undefined): void
  results(uid: string, observed: RuntimePod | undefined): PodProbeResults
  removePod(uid: string): void
}

export interface SyncContext {
  deps: ExecutorDeps
  backOff: BackOff
  clock: Clock
  prober?: ProbeSource
}

const NO_PROBES: PodProbeResults = new Map()

function probesOf(ctx: SyncContext, sp: StaticPod, observed: RuntimePod | undefined): PodProbeResults {
  return ctx.prober?.results(sp.pod.metadata.uid, observed) ?? NO_PROBES
}

/** Waiting reasons kept between syncs of one pod (ErrImagePull, CreateContainerError, …). */
export type WaitingReasons = Map<string, {reason: string; message: string}>

export interface PodSyncOutcome {
  plan: PodActions
  failures: StepFailure[]
  /** The runtime's view after the sync. */
  observed: RuntimePod | undefined
  status: PodStatus
}

/**
 * Back-off is per container definition, as the kubelet keys it by name and spec hash: an edit
 * that changes the container starts it at once instead of waiting out the old crash loop.
 */
export function backOffKey(sp: StaticPod, container: string): string {
  const spec = sp.pod.spec
  const c = [...(spec.initContainers ?? []), ...spec.containers].find((x) => x.name === container)
  return `${sp.pod.metadata.uid}/${container}/${c ? containerHash(sp.pod, c) : ''}`
}

export async function presentImages(images: ImageService): Promise<Set<string>> {
  const present = new Set<string>()
  for (const img of await images.listImages()) {
    for (const ref of [...img.repoTags, ...img.repoDigests]) present.add(normalizeImageRef(ref))
    present.add(img.id)
  }
  return present
}

export function podBackOff(backOff: BackOff, sp: StaticPod, now: number): Map<string, BackOffEntry> {
  const out = new Map<string, BackOffEntry>()
  const spec = sp.pod.spec
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    const e = backOff.get(backOffKey(sp, c.name), now)
    if (e) out.set(c.name, e)
  }
  return out
}

/** Computes the plan against the runtime's current state without changing anything. */
/**
 * What the runtime held a moment ago, read once for many pods (run's first sync of each pod):
 * saves every pod its own list calls. Only fresh reads are ever preloaded.
 */
export interface Preloaded {
  observed: RuntimePod | undefined
  images: Set<string>
}

export async function planPod(ctx: SyncContext, sp: StaticPod, preloaded?: Preloaded): Promise<{plan: PodActions; observed: RuntimePod | undefined}> {
  const {runtime} = ctx.deps
  const [observed, images] = preloaded
    ? [preloaded.observed, preloaded.images]
    : await Promise.all([readRuntimePod(runtime.runtime, sp.pod.metadata.uid), presentImages(runtime.images)])
  const now = ctx.clock.now()
  const plan = computePodActions({sp, runtime: observed, images, probes: probesOf(ctx, sp, observed), backOff: podBackOff(ctx.backOff, sp, now), now})
  return {plan, observed}
}

export async function syncPod(ctx: SyncContext, sp: StaticPod, waiting: WaitingReasons, preloaded?: Preloaded): Promise<PodSyncOutcome> {
  const uid = sp.pod.metadata.uid
  const {plan, observed: before} = await planPod(ctx, sp, preloaded)
  let failures: StepFailure[] = []
  let observed = before
  if (plan.actions.length > 0) {
    const result = await executePlan(ctx.deps, sp, plan, before)
    failures = result.failures
    const now = ctx.clock.now()
    for (const a of plan.actions) {
      // A restart (not a first start) arms the crash-loop back-off, as the kubelet's doBackOff does.
      if (a.type === 'StartContainer' && result.started.includes(a.name)) {
        waiting.delete(a.name)
        if (a.restartCount > 0) ctx.backOff.next(backOffKey(sp, a.name), now, 'CrashLoopBackOff')
      }
    }
    for (const f of failures) {
      if (f.reason === 'ErrImagePull') ctx.backOff.next(backOffKey(sp, f.container), now, 'ImagePullBackOff')
      if (f.container) waiting.set(f.container, {reason: f.reason, message: f.message})
    }
    observed = await readRuntimePod(ctx.deps.runtime.runtime, uid)
  }
  for (const b of plan.blocked) waiting.set(b.name, {reason: b.reason, message: b.message})
  // ConfigMap and Secret edits reach containers that already run (only changed files are written).
  if (observed?.sandboxes[0]?.state === 'ready') await refreshProjectedVolumes(ctx.deps, sp)
  // Probe workers follow the containers that now run; status reads their current results.
  ctx.prober?.syncPod(sp, observed)
  const status = generatePodStatus({sp, runtime: observed, probes: probesOf(ctx, sp, observed), waiting, ...(ctx.deps.hostIP ? {hostIP: ctx.deps.hostIP} : {})})
  return {plan, failures, observed, status}
}
