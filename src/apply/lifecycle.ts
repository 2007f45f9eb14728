// Lifecycle hooks (postStart, preStop) the way the kubelet runs them (pkg/kubelet/lifecycle/
// handlers.go): exec through CRI ExecSync, httpGet to the pod IP, sleep. The probe handlers do the
// work; this module only applies the hook rules on top of them:
// - an httpGet hook fails only when no response came back: every status code counts as success;
// - tcpSocket is accepted by validation but, as in the kubelet, fails when run ("invalid handler");
// - a hook runs until done, bounded here by `timeoutMs` (the caller's grace period or 2 minutes),
//   or until the caller's signal fires (a kill interrupting the sync that runs a postStart hook).
import type {Container, ContainerPort} from '../api/types.js'
import type {RuntimeService} from '../cri/port.js'
import type {Clock} from '../util/clock.js'
import {runExec, runHttpGet, type HandlerOutcome} from '../prober/handlers.js'

export type LifecycleHandler = NonNullable<NonNullable<Container['lifecycle']>['postStart']>

/** The kubelet sends `kube-lifecycle/<version>` for hooks, as `kube-probe/<version>` for probes. */
export const LIFECYCLE_USER_AGENT = 'kube-lifecycle/1.33'
/** How long a postStart hook may run before it counts as failed (the kubelet waits forever). */
export const POST_START_TIMEOUT_MS = 120_000
/** The kubelet's event reasons, used as log messages. */
export const FAILED_POST_START_HOOK = 'FailedPostStartHook'
export const FAILED_PRE_STOP_HOOK = 'FailedPreStopHook'

// The probe prints this for a 4xx/5xx answer; a hook takes any answer as success.
const STATUS_CODE_FAILURE = 'HTTP probe failed with statuscode'

export interface HookDeps {
  runtime: RuntimeService
  clock: Clock
}

export interface HookTarget {
  containerId: string
  containerName: string
  /** `name_namespace(uid)`, as the kubelet's format.Pod, for messages. */
  pod: string
  /** The pod's IP; empty on the host network (then 127.0.0.1). */
  podIP: string
  ports: readonly ContainerPort[]
}

export type HookResult = {ok: true} | {ok: false; message: string}

export function formatPod(name: string, namespace: string, uid: string): string {
  return `${name}_${namespace}(${uid})`
}

function commandText(command: readonly string[]): string {
  return `[${command.join(' ')}]`
}

/**
 * Runs one hook handler against a container; resolves (never rejects) with what happened. After
 * an abort of `signal` it answers at once; the caller, who aborted, ignores that answer.
 */
export async function runHook(deps: HookDeps, handler: LifecycleHandler, target: HookTarget, timeoutMs: number, signal?: AbortSignal): Promise<HookResult> {
  const who = `for Container ${JSON.stringify(target.containerName)} in Pod ${JSON.stringify(target.pod)}`
  if (handler.exec) {
    const command = handler.exec.command ?? []
    const out = await runExec(deps.runtime, target.containerId, command, timeoutMs, signal)
    if (out.result === 'Success') return {ok: true}
    const detail = out.result === 'Error' ? `error: ${out.output}` : `message: ${JSON.stringify(out.output)}`
    return {ok: false, message: `Exec lifecycle hook (${commandText(command)}) ${who} failed - ${detail}`}
  }
  if (handler.httpGet) {
    const out = await runHttpGetHook(handler.httpGet, target, timeoutMs, signal)
    if (out.result === 'Success') return {ok: true}
    return {ok: false, message: `HTTP lifecycle hook (${handler.httpGet.path ?? ''}) ${who} failed - error: ${out.output}`}
  }
  if (handler.sleep) {
    const ms = Math.max(0, handler.sleep.seconds) * 1000
    await deps.clock.sleep(Math.min(ms, timeoutMs), signal)
    if (ms <= timeoutMs) return {ok: true}
    return {ok: false, message: `Sleep lifecycle hook (${handler.sleep.seconds}) ${who} failed - error: container terminated before sleep hook finished`}
  }
  return {ok: false, message: `Cannot run handler: invalid handler: ${JSON.stringify(handler)}`}
}

async function runHttpGetHook(action: NonNullable<LifecycleHandler['httpGet']>, target: HookTarget, timeoutMs: number, signal: AbortSignal | undefined): Promise<HandlerOutcome> {
  const out = await runHttpGet(
    action,
    {podIP: target.podIP || '127.0.0.1', containerId: target.containerId, ports: [...target.ports]},
    timeoutMs,
    LIFECYCLE_USER_AGENT,
    signal,
  )
  if (out.result === 'Failure' && out.output.startsWith(STATUS_CODE_FAILURE)) return {result: 'Success', output: ''}
  return out
}
