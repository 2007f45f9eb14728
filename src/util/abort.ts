// Waiting that a caller can give up on: a pod worker's kill interrupts the sync in flight (the
// kubelet cancels the pod worker's context), and every wait in that sync must end at once.

/** Settles as `p` does, or rejects with the signal's reason as soon as it fires; `p` itself runs on. */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal))
    // Handled either way, so a rejection of `p` after the abort is never "unhandled".
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort)
        resolve(v)
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(err)
      },
    )
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, {once: true})
  })
}

/** What an aborted signal carries, as an Error for logs. */
export function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason
  return r instanceof Error ? r : new Error(typeof r === 'string' ? r : 'interrupted')
}
