// Owns the probe workers of every pod (the kubelet's prober_manager.go): one worker per
// (container, probe type) of each running container, results read back by current container ID.
import type {Container, Probe, StaticPod} from '../api/types.js'
import type {RuntimeService} from '../cri/port.js'
import type {RuntimeContainer, RuntimePod} from '../kuberuntime/model.js'
import type {ContainerProbeResults, PodProbeResults} from '../pod/probe-results.js'
import type {Clock} from '../util/clock.js'
import type {Logger} from '../util/logger.js'
import type {HandlerOutcome, HandlerTarget} from './handlers.js'
import {runProbe, type ProbeType} from './probe.js'
import type {EventSink} from '../api/events.js'
import {containerObject} from '../pod/event-object.js'
import {ProbeWorker, type WorkerTarget} from './worker.js'
import type {ProbeIdentity, ProbeMetrics} from './metrics.js'

export interface ProbeManagerDeps {
  runtime: RuntimeService
  clock: Clock
  logger: Logger
  /** A published result of the pod changed: the pod should be synced. */
  onChange: (uid: string) => void
  /** [0, 1); spreads the first probes after a start. */
  random?: () => number
  /** Probe host for host-network pods (whose sandbox has no IP); default 127.0.0.1. */
  hostIP?: string
  /** Runs one probe; default runProbe through `runtime`. Tests replace it. */
  run?: (probe: Probe, target: HandlerTarget) => Promise<HandlerOutcome>
  /** Where failed probes are reported (Unhealthy events). */
  events?: EventSink | undefined
  /** Where probe runs are counted (watch's /metrics/probes). */
  metrics?: ProbeMetrics | undefined
}

const PROBE_FIELDS = [
  ['startup', 'startupProbe'],
  ['liveness', 'livenessProbe'],
  ['readiness', 'readinessProbe'],
] as const satisfies readonly (readonly [ProbeType, keyof Container])[]

type PodWorkers = Map<string, ProbeWorker>
const key = (container: string, type: ProbeType): string => `${container}/${type}`

export class ProbeManager {
  private readonly pods = new Map<string, PodWorkers>()
  private readonly startedAt: number
  private readonly random: () => number
  private readonly run: (probe: Probe, target: HandlerTarget) => Promise<HandlerOutcome>

  constructor(private readonly deps: ProbeManagerDeps) {
    this.startedAt = deps.clock.now()
    this.random = deps.random ?? Math.random
    this.run = deps.run ?? ((probe, target) => runProbe(probe, target, deps.runtime))
  }

  /**
   * Makes the pod's workers match `observed`: one per (container, probe type) for running
   * containers that have that probe. A new container ID restarts its workers from the initial
   * results. Call it before results() in each sync.
   */
  syncPod(sp: StaticPod, observed: RuntimePod | undefined): void {
    const uid = sp.pod.metadata.uid
    const workers: PodWorkers = this.pods.get(uid) ?? new Map()
    const wanted = new Map<string, {type: ProbeType; target: WorkerTarget}>()
    const {spec} = sp.pod
    for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
      const rc = newestByName(observed, container.name)
      if (rc === undefined || rc.state !== 'running') continue
      const podIP = observed?.sandboxes.find((s) => s.id === rc.sandboxId)?.ip || this.deps.hostIP || '127.0.0.1'
      for (const [type, field] of PROBE_FIELDS) {
        const probe = container[field]
        if (probe !== undefined) wanted.set(key(container.name, type), {type, target: {container, probe, runtime: rc, podIP}})
      }
    }
    for (const [k, w] of workers) {
      if (wanted.has(k)) continue
      w.stop()
      workers.delete(k)
    }
    for (const [k, {type, target}] of wanted) {
      const existing = workers.get(k)
      if (existing !== undefined) existing.update(target)
      else workers.set(k, this.newWorker(sp, uid, type, target))
    }
    if (workers.size > 0) this.pods.set(uid, workers)
    else this.pods.delete(uid)
  }

  /** Results for the containers' current IDs in `observed` only: an old container's never leak. */
  results(uid: string, observed: RuntimePod | undefined): PodProbeResults {
    const out = new Map<string, ContainerProbeResults>()
    for (const w of this.pods.get(uid)?.values() ?? []) {
      if (newestByName(observed, w.containerName)?.id !== w.containerId) continue
      const entry = out.get(w.containerName) ?? {}
      entry[w.type] = w.result
      out.set(w.containerName, entry)
    }
    return out
  }

  removePod(uid: string): void {
    for (const w of this.pods.get(uid)?.values() ?? []) w.stop()
    this.pods.delete(uid)
  }

  stop(): void {
    for (const uid of [...this.pods.keys()]) this.removePod(uid)
  }

  private newWorker(sp: StaticPod, uid: string, type: ProbeType, target: WorkerTarget): ProbeWorker {
    const {clock, logger} = this.deps
    const workerKey = key(target.container.name, type)
    return new ProbeWorker(
      {
        uid,
        podName: sp.pod.metadata.name,
        object: containerObject(sp.pod, target.container.name),
        events: this.deps.events,
        type,
        clock,
        logger,
        run: this.run,
        isStarted: (containerId) => this.isStarted(uid, target.container.name, containerId),
        published: (w) => {
          // Are we still this pod's worker? A stopped one must not wake the sync loop.
          if (this.pods.get(uid)?.get(workerKey) !== w) return
          // A container that just started need not wait a period to become ready.
          if (w.type === 'startup' && w.result === 'Success') void this.pods.get(uid)?.get(key(w.containerName, 'readiness'))?.trigger()
          this.deps.onChange(uid)
        },
        firstDelay: (periodMs, containerStartedAt) => this.firstDelay(periodMs, containerStartedAt),
        metrics: this.workerMetrics({probeType: type, container: target.container.name, pod: sp.pod.metadata.name, namespace: sp.pod.metadata.namespace, podUid: uid}),
      },
      target,
    )
  }

  private workerMetrics(probe: ProbeIdentity): {observe(result: 'successful' | 'failed' | 'unknown', seconds: number): void; forget(): void} | undefined {
    const m = this.deps.metrics
    return m && {observe: (result, seconds) => m.observe(probe, result, seconds), forget: () => m.forget(probe)}
  }

  private isStarted(uid: string, container: string, containerId: string): boolean {
    const startup = this.pods.get(uid)?.get(key(container, 'startup'))
    if (startup === undefined) return true
    return startup.containerId === containerId && startup.result === 'Success'
  }

  /**
   * As the kubelet: right after a (re)start, spread the first probes of the containers it adopts
   * over one period, so that adopting many running containers does not probe them all at once.
   * A container that started since this process did is probed at once (a readiness probe with a
   * period of an hour must not hold up `run --wait ready` for a random part of that hour).
   */
  private firstDelay(periodMs: number, containerStartedAt: number): number {
    if (containerStartedAt > this.startedAt) return 0
    return periodMs > this.deps.clock.now() - this.startedAt ? this.random() * periodMs : 0
  }
}

function newestByName(pod: RuntimePod | undefined, name: string): RuntimeContainer | undefined {
  let best: RuntimeContainer | undefined
  for (const c of pod?.containers ?? []) {
    if (c.name === name && (best === undefined || c.createdAt > best.createdAt)) best = c
  }
  return best
}
