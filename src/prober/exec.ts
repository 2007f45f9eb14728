// Exec handler: CRI ExecSync in the container (kubelet pkg/probe/exec). Exit 0 is success; a
// command that runs out of time is a failure, as the kubelet's "command timed out".
import type {RuntimeService} from '../cri/port.js'
import {CriError, errorMessage} from '../util/errors.js'
import {limitOutput, seconds, type HandlerOutcome} from './target.js'

/** The runtime enforces the timeout; this local guard only catches a runtime that hangs. */
const GUARD_MARGIN_MS = 1000

export async function runExec(
  runtime: RuntimeService,
  containerId: string,
  command: string[],
  timeoutMs: number,
  /** Gives up at once (the hook's pod is being killed): the call is cancelled and this answers Error. */
  signal?: AbortSignal,
): Promise<HandlerOutcome> {
  const timedOut: HandlerOutcome = {result: 'Failure', output: `command ${JSON.stringify(command)} timed out after ${seconds(timeoutMs)}`}
  const timeoutSeconds = Math.max(1, Math.ceil(timeoutMs / 1000))
  const cancelled: HandlerOutcome = {result: 'Error', output: 'context canceled'}
  let timer: NodeJS.Timeout | undefined
  let onAbort = (): void => {}
  const guard = new Promise<HandlerOutcome>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), timeoutMs + GUARD_MARGIN_MS)
    // An abort ends the wait even if the runtime ignores the cancellation.
    onAbort = () => resolve(cancelled)
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, {once: true})
  })
  const call = runtime.execSync(containerId, command, timeoutSeconds, {signal}).then(
    (res): HandlerOutcome => {
      const output = limitOutput(res.stdout.toString() + res.stderr.toString())
      return {result: res.exitCode === 0 ? 'Success' : 'Failure', output}
    },
    (err: unknown): HandlerOutcome => {
      if (err instanceof CriError && err.code === 'DeadlineExceeded') return timedOut
      return {result: 'Error', output: errorMessage(err)}
    },
  )
  try {
    return await Promise.race([call, guard])
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}
