// One serial worker per pod UID (the kubelet's pod_workers.go, without goroutines): all work for
// a pod runs strictly in order, a busy pod's pending updates coalesce to the latest one, and a
// kill is never overwritten by a sync. Pods proceed in parallel with each other.
//
//   idle ──update(sync)──▶ syncing ──done──▶ idle
//     │                      │
//     └──update(kill)──▶ terminating ──done──▶ idle (forgotten; a later sync starts it again)
import type {StaticPod} from '../api/types.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {Logger} from '../util/logger.js'
import {realClock, type Clock} from '../util/clock.js'
import {errorMessage} from '../util/errors.js'

export type PodWork =
  | {type: 'sync'; sp: StaticPod; reason: string}
  | {type: 'kill'; uid: string; sp?: StaticPod; observed?: RuntimePod; reason: string}

/** The two things a worker can do, as plain functions (like the kubelet's podSyncerFuncs). */
export interface PodSyncer {
  sync(sp: StaticPod, reason: string): Promise<void>
  kill(work: Extract<PodWork, {type: 'kill'}>): Promise<void>
}

interface WorkerState {
  pending?: PodWork | undefined
  /** A sync that arrived while the pod was terminating: started once the kill is done. */
  restartRequested?: Extract<PodWork, {type: 'sync'}> | undefined
  running?: Promise<void> | undefined
  terminating: boolean
}

export class PodWorkers {
  private readonly workers = new Map<string, WorkerState>()
  private stopped = false

  constructor(
    private readonly syncer: PodSyncer,
    private readonly logger: Logger,
    private readonly clock: Clock = realClock,
  ) {}

  update(work: PodWork): void {
    if (this.stopped) return
    const uid = work.type === 'sync' ? work.sp.pod.metadata.uid : work.uid
    let w = this.workers.get(uid)
    if (!w) {
      w = {terminating: false}
      this.workers.set(uid, w)
    }
    if (work.type === 'kill') {
      w.terminating = true
      w.restartRequested = undefined
      w.pending = work
    } else if (w.terminating) {
      w.restartRequested = work
    } else if (w.pending?.type !== 'kill') {
      w.pending = work
    }
    if (!w.running) w.running = this.drive(uid, w)
  }

  /** True while the pod has work queued or in flight. */
  isBusy(uid: string): boolean {
    return this.workers.get(uid)?.running !== undefined
  }

  isTerminating(uid: string): boolean {
    return this.workers.get(uid)?.terminating ?? false
  }

  /** Stops taking work and waits for what is in flight (at most `timeoutMs`). */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true
    for (const w of this.workers.values()) w.pending = undefined
    const inflight = [...this.workers.values()].map((w) => w.running).filter((p): p is Promise<void> => p !== undefined)
    let cancel = (): void => {}
    await Promise.race([Promise.allSettled(inflight), new Promise<void>((r) => (cancel = this.clock.after(timeoutMs, r)))])
    cancel()
  }

  /** Resolves when every worker is idle (tests). */
  async idle(): Promise<void> {
    for (;;) {
      const inflight = [...this.workers.values()].map((w) => w.running).filter((p): p is Promise<void> => p !== undefined)
      if (inflight.length === 0) return
      await Promise.allSettled(inflight)
    }
  }

  private async drive(uid: string, w: WorkerState): Promise<void> {
    // Let update() return before the first await, so callers never run work synchronously.
    await Promise.resolve()
    while (w.pending && !this.stopped) {
      const work = w.pending
      w.pending = undefined
      try {
        if (work.type === 'sync') await this.syncer.sync(work.sp, work.reason)
        else await this.syncer.kill(work)
      } catch (err) {
        this.logger.error('Pod worker failed', {uid, work: work.type, err: errorMessage(err)})
      }
      if (work.type === 'kill' && !w.pending) {
        w.terminating = false
        if (w.restartRequested) {
          w.pending = w.restartRequested
          w.restartRequested = undefined
        }
      }
    }
    w.running = undefined
    if (!w.terminating && !w.pending) this.workers.delete(uid)
  }
}
