// `get pods -w`: after the first listing, the pods that changed since the last look, as kubectl's
// watch prints them (a row per change; a pod that went away prints its last row once). Polls the
// same readers `get` uses, once a second.
import type {Pod} from '../api/types.js'
import type {Clock} from '../util/clock.js'

const POLL_MS = 1000

function key(p: Pod): string {
  return `${p.metadata?.namespace}/${p.metadata?.name}`
}

/** What makes a row change: labels and status, not the passing of time. */
function signature(p: Pod): string {
  return JSON.stringify([p.metadata?.labels, p.metadata?.annotations?.['kubernetes.io/config.hash'], p.status])
}

/** Which pods of `next` differ from `last` (new or changed), and which of `last` are gone. */
export function diffPods(last: ReadonlyMap<string, Pod>, next: readonly Pod[]): Pod[] {
  const seen = new Set(next.map(key))
  const changed = next.filter((p) => last.get(key(p)) === undefined || signature(last.get(key(p))!) !== signature(p))
  const gone = [...last.values()].filter((p) => !seen.has(key(p)))
  return [...changed, ...gone]
}

export async function* podChanges(first: readonly Pod[], list: () => Promise<Pod[]>, clock: Pick<Clock, 'sleep'>, signal: AbortSignal): AsyncGenerator<Pod[]> {
  let last = new Map(first.map((p) => [key(p), p]))
  while (!signal.aborted) {
    await clock.sleep(POLL_MS, signal)
    if (signal.aborted) return
    // A pod removed between two looks is not an error for a watcher: it prints its last row.
    const next = await list().catch((): Pod[] => [])
    const changed = diffPods(last, next)
    last = new Map(next.map((p) => [key(p), p]))
    if (changed.length > 0) yield changed
  }
}
