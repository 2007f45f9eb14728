// Stopping containers and pods the kubelet's way: each running container gets its stop signal and
// the grace period (spec.terminationGracePeriodSeconds, else what the runtime annotation recorded,
// else 30s; never below 2s, kubelet's minimumGracePeriodInSeconds), then the sandboxes stop.
import type {Pod} from '../api/types.js'
import type {RuntimeService} from '../cri/port.js'
import type {RuntimeContainer, RuntimePod} from '../kuberuntime/model.js'
import {CriError} from '../util/errors.js'

export const DEFAULT_GRACE_PERIOD_SECONDS = 30
export const MIN_GRACE_PERIOD_SECONDS = 2

export function gracePeriodSeconds(pod: Pod | undefined, container: RuntimeContainer | undefined, override?: number): number {
  const fromSpec = pod?.spec?.terminationGracePeriodSeconds
  const g = override ?? fromSpec ?? container?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_PERIOD_SECONDS
  return Math.max(MIN_GRACE_PERIOD_SECONDS, g)
}

async function tolerateNotFound(p: Promise<void>): Promise<void> {
  try {
    await p
  } catch (err) {
    if (!(err instanceof CriError && err.code === 'NotFound')) throw err
  }
}

export async function stopContainerGracefully(
  runtime: RuntimeService,
  containerId: string,
  pod: Pod | undefined,
  observed: RuntimeContainer | undefined,
  override?: number,
): Promise<void> {
  await tolerateNotFound(runtime.stopContainer(containerId, gracePeriodSeconds(pod, observed, override)))
}

export interface StopPodOptions {
  /** Also remove the sandboxes (and with them their containers) once stopped. */
  remove: boolean
  gracePeriodOverride?: number
}

/** Stops every running container of the pod in parallel, then stops (and removes) its sandboxes. */
export async function stopPodSandboxes(
  runtime: RuntimeService,
  pod: Pod | undefined,
  observed: RuntimePod | undefined,
  opts: StopPodOptions,
): Promise<void> {
  if (!observed) return
  const running = observed.containers.filter((c) => c.state === 'running' || c.state === 'created' || c.state === 'unknown')
  await Promise.all(running.map((c) => stopContainerGracefully(runtime, c.id, pod, c, opts.gracePeriodOverride)))
  for (const s of observed.sandboxes) {
    await tolerateNotFound(runtime.stopPodSandbox(s.id))
    if (opts.remove) await tolerateNotFound(runtime.removePodSandbox(s.id))
  }
}

/** Stops and removes sandboxes that a newer one replaced (the kubelet leaves this to its GC). */
export async function removeSandboxes(runtime: RuntimeService, ids: string[]): Promise<void> {
  for (const id of ids) {
    await tolerateNotFound(runtime.stopPodSandbox(id))
    await tolerateNotFound(runtime.removePodSandbox(id))
  }
}
