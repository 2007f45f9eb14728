// Shared by the source tests: manifests as text, static pods as the pipeline makes them, a
// logger that keeps its lines, and a collector that waits for a snapshot.
import type {StaticPod} from '../../../src/api/types.js'
import {applyDefaults} from '../../../src/manifest/defaults.js'
import {realClock, type Clock} from '../../../src/util/clock.js'
import {createLogger, type Logger} from '../../../src/util/logger.js'
import type {ManifestSource, SourceSnapshot} from '../../../src/sources/types.js'

export const NODE = 'node-1'

export const podYaml = (name: string, image = 'nginx:1.27', namespace?: string): string =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n${namespace ? `  namespace: ${namespace}\n` : ''}spec:\n  containers:\n  - name: app\n    image: ${image}\n`

/** A static pod as the manifest pipeline produces it. */
export function staticPod(
  name: string,
  opts: {image?: string; location?: string; kind?: 'file' | 'http'; labels?: Record<string, string>; annotations?: Record<string, string>; uid?: string} = {},
): StaticPod {
  return applyDefaults(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name, labels: opts.labels, annotations: opts.annotations, uid: opts.uid},
      spec: {containers: [{name: 'app', image: opts.image ?? 'nginx:1.27'}]},
    },
    {nodeName: NODE, source: {kind: opts.kind ?? 'file', location: opts.location ?? `/m/${name}.yaml`, document: 0}},
  )
}

export function captureLogger(): {logger: Logger; lines: string[]} {
  const lines: string[] = []
  return {logger: createLogger({verbosity: 10, format: 'text', write: (l) => lines.push(l)}), lines}
}

/** Starts a source and keeps every snapshot it emits. */
export function collect(source: ManifestSource): {
  snapshots: SourceSnapshot[]
  waitFor: (pred: (s: SourceSnapshot) => boolean, what: string, timeoutMs?: number) => Promise<SourceSnapshot>
} {
  const snapshots: SourceSnapshot[] = []
  const waiters: Array<() => void> = []
  source.start((s) => {
    snapshots.push(s)
    for (const w of waiters.splice(0)) w()
  })
  return {
    snapshots,
    async waitFor(pred, what, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const hit = snapshots.findLast(pred)
        if (hit && snapshots.at(-1) === hit) return hit
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`no snapshot ${what} within ${timeoutMs}ms; got ${JSON.stringify(snapshots.map(summary))}`)
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left)
          waiters.push(() => {
            clearTimeout(t)
            resolve()
          })
        })
      }
    },
  }
}

/** What a person looks at in a snapshot: pod name → image, and the problems. */
export function summary(s: SourceSnapshot): {pods: Record<string, string>; issues: string[]} {
  return {
    pods: Object.fromEntries(s.pods.map((p) => [p.manifestName, p.pod.spec.containers[0]?.image ?? ''])),
    issues: s.issues.map((i) => `${i.location.split('/').pop()} [${i.document}] ${i.field}: ${i.message}`),
  }
}

/** Periodic re-lists/polls (sleeps of exactly `periodMs`) happen only on relist(); other waits (the debounce) are real. */
export class RelistClock implements Clock {
  private waiting: Array<() => void> = []
  constructor(private readonly periodMs: number) {}
  now(): number {
    return Date.now()
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms !== this.periodMs) return realClock.sleep(ms, signal)
    return new Promise((resolve) => {
      this.waiting.push(resolve)
      signal?.addEventListener('abort', () => resolve(), {once: true})
    })
  }
  after(ms: number, fn: () => void): () => void {
    return realClock.after(ms, fn)
  }
  every(ms: number, fn: () => void): () => void {
    return realClock.every(ms, fn)
  }
  /** Lets the source re-list once and gives it time to finish. */
  async relist(): Promise<void> {
    // The source may still be finishing its last read before it sleeps again.
    for (let i = 0; i < 100 && this.waiting.length === 0; i++) await new Promise((r) => setTimeout(r, 10))
    for (const w of this.waiting.splice(0)) w()
    await new Promise((r) => setTimeout(r, 50))
  }
}
