// Stopping containers and pods the kubelet's way (killContainer, KUBELET.md §7.4): the grace
// period is worked out, the container's preStop hook runs within it and what it took is taken
// off, then StopContainer sends the stop signal with what remains (never below 2s, the kubelet's
// minimumGracePeriodInSeconds). A pod stops its running containers in parallel, then its sandboxes.
import type {Container, ContainerPort, Pod} from '../api/types.js'
import type {RuntimeService} from '../cri/port.js'
import {isStillStarting} from '../cri/errors.js'
import type {RuntimeContainer, RuntimePod} from '../kuberuntime/model.js'
import type {Clock} from '../util/clock.js'
import type {Logger} from '../util/logger.js'
import {realClock} from '../util/clock.js'
import {CONTAINER_PORTS_ANNOTATION, PRESTOP_HANDLER_ANNOTATION} from '../kuberuntime/labels.js'
import {FAILED_PRE_STOP_HOOK, formatPod, runHook, type LifecycleHandler} from './lifecycle.js'
import type {EventSink} from '../api/events.js'
import {containerObject} from '../pod/event-object.js'
import {terminationPrerequisites} from '../pod/termination-order.js'

export const DEFAULT_GRACE_PERIOD_SECONDS = 30
export const MIN_GRACE_PERIOD_SECONDS = 2

/** How much longer than the grace period a stop may take before it is reported. */
const EXCEEDED_GRACE_MARGIN_SECONDS = 5

// The message of a `Killing` event, in the kubelet's words (computePodActions and
// computeInitContainerActions in kuberuntime_manager.go, startContainer's postStart failure),
// from the reason a KillContainer action carries. People and alerts match these messages, so a
// probe kill reads "Container web failed liveness probe, will be restarted", not a generic
// "Stopping container web". Pure.

/** The reason a postStart hook failure gives its kill (apply/lifecycle.ts uses the same word). */
const POST_START_HOOK_KILL = 'FailedPostStartHook'

/**
 * `reason` is the kill action's reason (decide/compute-pod-actions.ts, decide/init-actions.ts);
 * `restarted` whether the same plan starts the container again. The kubelet adds
 * ", will be restarted" only for regular containers; its init-container messages never say it.
 * Anything it has no words for (a pod's termination, a created container that never ran) is
 * the plain "Stopping container X".
 */
export function killingMessage(name: string, reason: string | undefined, restarted: boolean): string {
  const why = reason ?? ''
  if (why === POST_START_HOOK_KILL) return POST_START_HOOK_KILL
  const init = /^(sidecar|init container) "/.test(why)
  const who = init ? 'Init container' : 'Container'
  if (/ is in an unknown state$/.test(why)) return `${who} is in "unknown" state, try killing it before restart`
  let message: string
  if (/ failed its liveness probe$/.test(why)) message = `${who} ${name} failed liveness probe`
  else if (/ failed its startup probe$/.test(why)) message = `${who} ${name} failed startup probe`
  else if (/'s spec changed\b/.test(why)) message = `${who} ${name} definition changed`
  else return `Stopping container ${name}`
  return restarted && !init ? `${message}, will be restarted` : message
}

export interface KillDeps {
  runtime: RuntimeService
  logger: Logger
  /** Measures the preStop hook; the real clock when not given. */
  clock?: Clock | undefined
  events?: EventSink | undefined
}

export interface KillOptions {
  /** A caller's grace period (`down --grace-period`): replaces every other rule. */
  gracePeriodOverride?: number | undefined
  /** Why the container is killed (the plan's KillContainer reason); probe kills may use the probe's grace period. */
  reason?: string
  /** The same plan starts it again: its Killing event then says "will be restarted". */
  restarted?: boolean
  /** Its pod stops: after its preStop hook it waits its turn (sidecars last) within its grace period. */
  turns?: TerminationTurns | undefined
}

/** Which probe's failure a kill reason names ("… failed its liveness probe"), if any. */
function probeKill(reason: string | undefined): 'livenessProbe' | 'startupProbe' | undefined {
  const m = /failed its (liveness|startup) probe/.exec(reason ?? '')
  if (!m) return undefined
  return m[1] === 'liveness' ? 'livenessProbe' : 'startupProbe'
}

/**
 * The grace period before the preStop hook (the kubelet's setTerminationGracePeriod, then the
 * override): a liveness or startup kill uses that probe's terminationGracePeriodSeconds when set,
 * else the pod's terminationGracePeriodSeconds, else what the runtime annotation recorded, else
 * 30s. Not yet raised to the 2s minimum: a 0 here skips the preStop hook.
 */
export function baseGracePeriodSeconds(pod: Pod | undefined, spec: Container | undefined, observed: RuntimeContainer | undefined, opts: KillOptions = {}): number {
  if (opts.gracePeriodOverride !== undefined) return opts.gracePeriodOverride
  const probe = probeKill(opts.reason)
  const fromProbe = probe ? spec?.[probe]?.terminationGracePeriodSeconds : undefined
  if (fromProbe !== undefined && fromProbe !== null) return fromProbe
  return pod?.spec?.terminationGracePeriodSeconds ?? observed?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_PERIOD_SECONDS
}


function specContainer(pod: Pod | undefined, name: string): Container | undefined {
  const spec = pod?.spec
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])].find((c) => c.name === name)
}

function parseJson<T>(text: string | undefined): T | undefined {
  if (!text) return undefined
  try {
    return JSON.parse(text) as T
  } catch {
    return undefined
  }
}

interface PreStop {
  handler: LifecycleHandler
  ports: readonly ContainerPort[]
}

/**
 * The preStop hook from the desired spec; for a container the spec no longer has (a removed pod),
 * from the annotations the container was created with, as the kubelet restores them.
 */
async function preStopOf(runtime: RuntimeService, spec: Container | undefined, containerId: string): Promise<PreStop | undefined> {
  if (spec) return spec.lifecycle?.preStop ? {handler: spec.lifecycle.preStop, ports: spec.ports ?? []} : undefined
  let annotations: Record<string, string>
  try {
    annotations = (await runtime.containerStatus(containerId)).annotations
  } catch {
    return undefined
  }
  const handler = parseJson<LifecycleHandler>(annotations[PRESTOP_HANDLER_ANNOTATION])
  if (!handler || typeof handler !== 'object') return undefined
  const ports = parseJson<ContainerPort[]>(annotations[CONTAINER_PORTS_ANNOTATION])
  return {handler, ports: Array.isArray(ports) ? ports : []}
}

export interface KillTarget {
  containerId: string
  name: string
  /** The runtime's view of the container, for its state and recorded grace period. */
  observed?: RuntimeContainer | undefined
  /** The pod's IP, for httpGet hooks; empty on the host network. */
  podIP: string
}

/** killContainer: preStop within the grace period, then StopContainer with what is left. NotFound is success. */
export async function killContainer(deps: KillDeps, target: KillTarget, pod: Pod | undefined, opts: KillOptions = {}): Promise<void> {
  const clock = deps.clock ?? realClock
  const spec = specContainer(pod, target.name)
  let grace = baseGracePeriodSeconds(pod, spec, target.observed, opts)
  // A hook can only run in a running container (created ones never started).
  const running = target.observed === undefined || target.observed.state === 'running'
  // A pod no manifest defines any more is going away with its events: only known pods report.
  const event = (type: 'Normal' | 'Warning', reason: string, message: string): void => {
    if (pod) deps.events?.emit(containerObject(pod, target.name), type, reason, message)
  }
  if (running) event('Normal', 'Killing', killingMessage(target.name, opts.reason, opts.restarted ?? false))
  const preStop = grace > 0 && running ? await preStopOf(deps.runtime, spec, target.containerId) : undefined
  if (preStop) {
    const started = clock.now()
    const meta = pod?.metadata
    const result = await runHook(
      {runtime: deps.runtime, clock},
      preStop.handler,
      {
        containerId: target.containerId,
        containerName: target.name,
        pod: formatPod(meta?.name ?? '', meta?.namespace ?? '', meta?.uid ?? ''),
        podIP: target.podIP,
        ports: preStop.ports,
      },
      grace * 1000,
    )
    if (!result.ok) {
      deps.logger.warn(FAILED_PRE_STOP_HOOK, {pod: meta?.name, container: target.name, err: result.message})
      event('Warning', FAILED_PRE_STOP_HOOK, result.message)
    }
    // Whole seconds, as the kubelet counts them.
    grace -= Math.floor((clock.now() - started) / 1000)
  }
  if (opts.turns && grace > 0) {
    const waiting = clock.now()
    await opts.turns.waitForTurn(target.name, grace * 1000)
    grace -= Math.floor((clock.now() - waiting) / 1000)
  }
  grace = Math.max(MIN_GRACE_PERIOD_SECONDS, grace)
  const stopping = clock.now()
  await stopOrSeeExited(deps.runtime, target.containerId, grace)
  // The runtime should have killed it when the grace period ran out; a few seconds more is its own slowness.
  if (clock.now() - stopping > (grace + EXCEEDED_GRACE_MARGIN_SECONDS) * 1000) {
    event('Warning', 'ExceededGracePeriod', 'Container runtime did not kill the pod within specified grace period.')
  }
}

/**
 * StopContainer, taken as done when the container has exited anyway. A container that exits on its
 * own as it is signalled (a shell trapping TERM) takes its shim with it, and containerd may then
 * answer the stop with an error ("ttrpc: closed") although nothing is left running; under load, a
 * `down` of many pods met this. The stop is asked once more if the container still runs, as the
 * kubelet's next sync would ask it; a second failure while it runs is the stop's error.
 */
async function stopOrSeeExited(runtime: RuntimeService, containerId: string, grace: number): Promise<void> {
  const exited = async (): Promise<boolean> => (await runtime.containerStatus(containerId).catch(() => undefined))?.state === 'CONTAINER_EXITED'
  try {
    await runtime.stopContainer(containerId, grace)
  } catch {
    if (await exited()) return
    try {
      await runtime.stopContainer(containerId, grace)
    } catch (err) {
      if (!(await exited())) throw err
    }
  }
}

export interface StopPodOptions {
  /** Also remove the sandboxes (and with them their containers) once stopped. */
  remove: boolean
  gracePeriodOverride?: number | undefined
}

/**
 * Stops every running container of the pod at once, then stops (and removes) its sandboxes. As in
 * the kubelet (killContainersWithSyncResult), every preStop hook starts at once, sidecars' too;
 * only the stops are ordered: the main containers first, then the sidecars in reverse spec order,
 * each waiting its turn within what is left of its own grace period.
 */
export async function stopPodSandboxes(deps: KillDeps, pod: Pod | undefined, observed: RuntimePod | undefined, opts: StopPodOptions): Promise<void> {
  if (!observed) return
  const running = observed.containers.filter((c) => c.state === 'running' || c.state === 'created' || c.state === 'unknown')
  const ipOf = (sandboxId: string): string => observed.sandboxes.find((s) => s.id === sandboxId)?.ip ?? ''
  const killOpts: KillOptions = opts.gracePeriodOverride !== undefined ? {gracePeriodOverride: opts.gracePeriodOverride} : {}
  const prerequisites = terminationPrerequisites(pod, running)
  const turns = prerequisites.size > 0 ? new TerminationTurns(prerequisites, deps.clock ?? realClock) : undefined
  const kill = async (c: RuntimeContainer): Promise<void> => {
    try {
      await killContainer(deps, {containerId: c.id, name: c.name, observed: c, podIP: ipOf(c.sandboxId)}, pod, {...killOpts, turns})
    } finally {
      // A failed stop must not hold the sidecars waiting for it until their grace period ends.
      turns?.terminated(c.name)
    }
  }
  const results = await Promise.allSettled(running.map(kill))
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failed) throw failed.reason
  for (const s of observed.sandboxes) {
    await deps.runtime.stopPodSandbox(s.id)
    if (opts.remove) await removeSandbox(deps, s.id)
  }
}

/** How long a removal waits for a container the runtime is still starting: 20 tries, 500 ms apart. */
const STILL_STARTING_TRIES = 20
const STILL_STARTING_PAUSE_MS = 500

/**
 * Removes a stopped sandbox. A `run` killed inside StartContainer leaves the runtime starting that
 * container for a moment, and containerd refuses to remove it meanwhile: `down` right after such
 * a kill (a CI job's cleanup) waits that out instead of failing.
 */
async function removeSandbox(deps: KillDeps, id: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.runtime.removePodSandbox(id)
    } catch (err) {
      if (!isStillStarting(err) || attempt >= STILL_STARTING_TRIES) throw err
      deps.logger.debug(2, 'The runtime is still starting a container of the sandbox; removing it again shortly', {sandbox: id, attempt})
    }
    await (deps.clock ?? realClock).sleep(STILL_STARTING_PAUSE_MS)
  }
}

// Waiting for a container's turn to stop while its pod stops (the kubelet's
// terminationOrdering.waitForTurn and containerTerminated): a container waits, at most for what
// is left of its grace period, until the containers before it (pod/termination-order.ts) have
// stopped. Its preStop hook has already run by then: only the stop waits.
interface Stopped {
  promise: Promise<void>
  resolve: () => void
}

export class TerminationTurns {
  private readonly stopped = new Map<string, Stopped>()

  constructor(
    private readonly prerequisites: ReadonlyMap<string, readonly string[]>,
    private readonly clock: Clock,
  ) {}

  /** Resolves when every container before `name` has stopped, or after `ms`, whichever is first. */
  async waitForTurn(name: string, ms: number): Promise<void> {
    const before = this.prerequisites.get(name) ?? []
    if (before.length === 0) return
    let cancel = (): void => {}
    const timeout = new Promise<void>((resolve) => {
      cancel = this.clock.after(ms, resolve)
    })
    await Promise.race([Promise.all(before.map((n) => this.of(n).promise)), timeout])
    cancel()
  }

  /** `name` has stopped (or its stop failed): the containers waiting for it may go on. */
  terminated(name: string): void {
    this.of(name).resolve()
  }

  private of(name: string): Stopped {
    let s = this.stopped.get(name)
    if (!s) {
      let resolve = (): void => {}
      const promise = new Promise<void>((r) => {
        resolve = r
      })
      s = {promise, resolve}
      this.stopped.set(name, s)
    }
    return s
  }
}
