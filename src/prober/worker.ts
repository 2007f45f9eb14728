// One probe of one container, run every periodSeconds (the kubelet's prober/worker.go):
//
//   new container ID ──▶ initial result (readiness Failure, liveness Success, startup Unknown)
//        │                  each tick: skip if on hold / younger than initialDelaySeconds /
//        ▼                  not started (liveness, readiness) / already started (startup)
//   run handler (an Error is retried at once, then the run is ignored)
//        │
//        ▼
//   same result N times in a row (failureThreshold / successThreshold) ──▶ publish
//        │
//        └─ liveness or startup Failure published ──▶ on hold until a new container ID
import type {Container, Probe} from '../api/types.js'
import type {RuntimeContainer} from '../kuberuntime/model.js'
import type {ProbeResult} from '../pod/probe-results.js'
import type {Clock} from '../util/clock.js'
import {errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import type {HandlerOutcome, HandlerTarget} from './handlers.js'
import type {EventObject, EventSink} from '../api/events.js'
import {expandExecProbe, probeTimings, type ProbeType} from './probe.js'
import type {ProbeMetricResult} from './metrics.js'

/** The kubelet's maxProbeRetries: attempts of one run that errors before it is ignored. */
export const MAX_PROBE_ATTEMPTS = 3

export const INITIAL_RESULT: Readonly<Record<ProbeType, ProbeResult>> = {
  readiness: 'Failure',
  liveness: 'Success',
  startup: 'Unknown',
}

/** What the worker probes, as of the latest observation of the pod. */
export interface WorkerTarget {
  container: Container
  probe: Probe
  runtime: RuntimeContainer
  podIP: string
}

export interface WorkerDeps {
  uid: string
  podName: string
  /** The container, as events name it. */
  object: EventObject
  events?: EventSink | undefined
  type: ProbeType
  clock: Clock
  logger: Logger
  run: (probe: Probe, target: HandlerTarget) => Promise<HandlerOutcome>
  /** True once the container with this ID has started: its startup probe succeeded, or it has none. */
  isStarted: (containerId: string) => boolean
  /** Called when the published result changed. */
  published: (worker: ProbeWorker) => void
  /** How long to wait before the first run of a new container, given the period. */
  firstDelay: (periodMs: number, containerStartedAt: number) => number
  /** Where each run's result and duration go, and when the worker stops (/metrics/probes). */
  metrics?: {observe(result: ProbeMetricResult, seconds: number): void; forget(): void} | undefined
}

export class ProbeWorker {
  private target: WorkerTarget
  private id: string
  private current: ProbeResult
  private last: ProbeResult | undefined
  private streak = 0
  private onHold = false
  private stopped = false
  private cancelTimer: () => void = () => {}
  private inFlight: Promise<void> | undefined

  constructor(
    private readonly deps: WorkerDeps,
    target: WorkerTarget,
  ) {
    this.target = target
    this.id = target.runtime.id
    this.current = INITIAL_RESULT[deps.type]
    this.schedule(deps.firstDelay(this.periodMs(), target.runtime.startedAt))
  }

  get type(): ProbeType {
    return this.deps.type
  }
  get containerName(): string {
    return this.target.container.name
  }
  /** The container ID the result belongs to. */
  get containerId(): string {
    return this.id
  }
  get result(): ProbeResult {
    return this.current
  }

  /** A newer observation; a new container ID starts over from the initial result. */
  update(target: WorkerTarget): void {
    const oldPeriod = this.periodMs()
    this.target = target
    if (target.runtime.id !== this.id) {
      this.id = target.runtime.id
      this.current = INITIAL_RESULT[this.deps.type]
      this.last = undefined
      this.streak = 0
      this.onHold = false
      this.schedule(this.deps.firstDelay(this.periodMs(), target.runtime.startedAt))
    } else if (this.periodMs() !== oldPeriod) {
      this.schedule(this.periodMs())
    }
  }

  /** Probes now unless a run is in progress; resolves when that run is over. */
  trigger(): Promise<void> {
    this.inFlight ??= this.probeOnce()
      .catch((err: unknown) => this.deps.logger.error(`${this.deps.type} probe worker failed`, this.fields({error: errorMessage(err)})))
      .finally(() => (this.inFlight = undefined))
    return this.inFlight
  }

  stop(): void {
    this.stopped = true
    this.cancelTimer()
    this.deps.metrics?.forget()
  }

  private periodMs(): number {
    return probeTimings(this.target.probe, this.deps.type).periodSeconds * 1000
  }

  private schedule(delayMs: number): void {
    this.cancelTimer()
    if (this.stopped) return
    // A ticker: a tick that comes while a run is still going is dropped, as Go's ticker does.
    this.cancelTimer = this.deps.clock.after(delayMs, () => {
      this.schedule(this.periodMs())
      void this.trigger()
    })
  }

  private async probeOnce(): Promise<void> {
    if (this.stopped || this.onHold) return
    const {probe, container, runtime: rc, podIP} = this.target
    const {type} = this.deps
    const timings = probeTimings(probe, type)
    const id = this.id
    const ranFor = Math.floor((this.deps.clock.now() - rc.startedAt) / 1000)
    if (rc.startedAt > 0 && ranFor < timings.initialDelaySeconds) return
    if (type === 'startup' ? this.current === 'Success' : !this.deps.isStarted(id)) return

    const startedAt = this.deps.clock.now()
    const outcome = await this.attempt(expandExecProbe(probe, container), {podIP, containerId: id, ports: container.ports ?? []})
    // The container changed or the worker stopped while the probe ran: the result is stale.
    if (this.stopped || this.id !== id) return
    if (outcome.result === 'Error') {
      this.deps.logger.warn(`${type} probe errored; this run is ignored`, this.fields({attempts: MAX_PROBE_ATTEMPTS, error: outcome.output}))
      return
    }
    this.deps.metrics?.observe(outcome.result === 'Success' ? 'successful' : 'failed', (this.deps.clock.now() - startedAt) / 1000)
    if (outcome.warning) this.deps.events?.emit(this.deps.object, 'Warning', 'ProbeWarning', `${title(type)} probe warning: ${outcome.output}`)
    this.record(outcome.result, outcome.output, timings)
  }

  private async attempt(probe: Probe, target: HandlerTarget): Promise<HandlerOutcome> {
    let outcome: HandlerOutcome = {result: 'Error', output: 'not run'}
    for (let i = 0; i < MAX_PROBE_ATTEMPTS; i++) {
      try {
        outcome = await this.deps.run(probe, target)
      } catch (err) {
        outcome = {result: 'Error', output: errorMessage(err)}
      }
      if (outcome.result !== 'Error' || this.stopped) return outcome
    }
    return outcome
  }

  private record(result: 'Success' | 'Failure', output: string, timings: {successThreshold: number; failureThreshold: number}): void {
    const {type, logger} = this.deps
    if (result === this.last) this.streak++
    else {
      this.last = result
      this.streak = 1
    }
    if (result === 'Failure') {
      logger.debug(1, `${type} probe failed`, this.fields({output, failures: this.streak}))
      // Every failed run is an Unhealthy event, as the kubelet's prober reports them (they coalesce).
      this.deps.events?.emit(this.deps.object, 'Warning', 'Unhealthy', `${title(type)} probe failed: ${output}`)
    }
    const threshold = result === 'Failure' ? timings.failureThreshold : timings.successThreshold
    if (this.streak < threshold) return
    if (result !== this.current) {
      this.current = result
      // A failure matters to an operator (it restarts or unreadies a container); a success is routine.
      if (result === 'Failure') logger.warn(`${type} probe failed`, this.fields({output}))
      else logger.debug(2, `${type} probe result is now ${result}`, this.fields({}))
      this.deps.published(this)
    }
    if (type !== 'readiness' && result === 'Failure') {
      // The container will be restarted; probing it meanwhile only races with its kill.
      this.onHold = true
      this.streak = 0
    }
  }

  private fields(extra: Record<string, unknown>): Record<string, unknown> {
    return {pod: this.deps.podName, podUID: this.deps.uid, container: this.target.container.name, containerID: this.id, ...extra}
  }
}

/** `readiness` → `Readiness`, as the kubelet's event messages name probes. */
function title(type: ProbeType): string {
  return `${type[0]?.toUpperCase() ?? ''}${type.slice(1)}`
}
