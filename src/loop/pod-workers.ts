// One serial worker per pod UID (the kubelet's pod_workers.go, without goroutines): all work for
// a pod runs strictly in order, a busy pod's pending updates coalesce to the latest one, and a
// kill is never overwritten by a sync. Pods proceed in parallel with each other. A kill (or a
// sync that stands for one: the active deadline passed) that arrives while the pod syncs aborts
// that sync's signal (the kubelet cancels the pod worker's context), so a long pull or postStart
// hook never delays it; other updates wait their turn.
//
//   idle ──update(sync)──▶ syncing ──done──▶ idle
//     │                      │ update(kill): the sync is aborted and ends at once
//     └──update(kill)──▶ terminating ──done──▶ idle (forgotten; a later sync starts it again)
import type {StaticPod} from '../api/types.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {Logger} from '../util/logger.js'
import {realClock, type Clock} from '../util/clock.js'
import {errorMessage} from '../util/errors.js'

export type PodWork =
  /** `interrupts`: why this sync stands for a kill (the active deadline passed) and aborts the one in flight. */
  | {type: 'sync'; sp: StaticPod; reason: string; interrupts?: string | undefined}
  | {type: 'kill'; uid: string; sp?: StaticPod; observed?: RuntimePod; reason: string}

/** The two things a worker can do, as plain functions (like the kubelet's podSyncerFuncs). */
export interface PodSyncer {
  /** `signal` fires when a kill of the pod (or stop) interrupts this sync: it should end quietly. */
  sync(sp: StaticPod, reason: string, signal: AbortSignal): Promise<void>
  kill(work: Extract<PodWork, {type: 'kill'}>): Promise<void>
  /** A sync that waited for the pod's kill starts the same UID again (kubelet_restarted_pods_total). */
  restarted?(sp: StaticPod): void
}

interface WorkerState {
  pending?: PodWork | undefined
  /** A sync that arrived while the pod was terminating: started once the kill is done. */
  restartRequested?: Extract<PodWork, {type: 'sync'}> | undefined
  running?: Promise<void> | undefined
  /** Aborts the sync in flight, if one is. */
  syncing?: AbortController | undefined
  terminating: boolean
  /** The kill in progress came with the pod's spec (for the working-pods count). */
  killHadSpec?: boolean | undefined
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
      w.killHadSpec = work.sp !== undefined
      w.restartRequested = undefined
      w.pending = work
      w.syncing?.abort(new Error(`interrupted: ${work.reason}`))
    } else if (w.terminating) {
      w.restartRequested = work
    } else if (w.pending?.type !== 'kill') {
      w.pending = work
      if (work.interrupts) w.syncing?.abort(new Error(`interrupted: ${work.interrupts}`))
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

  /** The pods being killed now. */
  terminating(): {uid: string; hadSpec: boolean}[] {
    return [...this.workers].filter(([, w]) => w.terminating).map(([uid, w]) => ({uid, hadSpec: w.killHadSpec ?? false}))
  }

  /** Stops taking work, interrupts the syncs in flight and waits for what is left (at most `timeoutMs`). */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true
    for (const w of this.workers.values()) {
      w.pending = undefined
      // Kills in flight finish (within the timeout); a sync's remaining steps wait for the next start.
      w.syncing?.abort(new Error('interrupted: stopping'))
    }
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
        if (work.type === 'sync') {
          w.syncing = new AbortController()
          await this.syncer.sync(work.sp, work.reason, w.syncing.signal)
        } else await this.syncer.kill(work)
      } catch (err) {
        this.logger.error('Pod worker failed', {uid, work: work.type, err: errorMessage(err)})
      } finally {
        w.syncing = undefined
      }
      if (work.type === 'kill' && !w.pending) {
        w.terminating = false
        if (w.restartRequested) {
          w.pending = w.restartRequested
          w.restartRequested = undefined
          this.syncer.restarted?.(w.pending.sp)
        }
      }
    }
    w.running = undefined
    if (!w.terminating && !w.pending) this.workers.delete(uid)
  }
}
