// kube-node's own families (no kubelet counterpart): sync errors, broken manifests per source,
// and the store's file writes.
import {Counter, Gauge, type Registry} from 'prom-client'

const STORE_FILES = ['status', 'events'] as const
export type StoreFile = (typeof STORE_FILES)[number]

export interface KubeNodeOwnMetrics {
  syncError(): void
  /** Manifests of `source` (a file, directory or URL) that could not be used. */
  setManifestErrors(source: string, n: number): void
  /** Where the store's write counts come from (status records and event files), read at each scrape. */
  countStoreWrites(counts: () => Record<StoreFile, number>): void
}

export function kubeNodeMetrics(registers: Registry[]): KubeNodeOwnMetrics {
  const syncErrors = new Counter({name: 'kube_node_sync_errors_total', help: 'Cumulative number of pod syncs that ended with an error.', registers})
  const manifestErrors = new Gauge({
    name: 'kube_node_manifest_errors',
    help: 'Number of manifests of a source that could not be used at its last read.',
    labelNames: ['source'],
    registers,
  })
  let storeCounts: () => Record<StoreFile, number> = () => ({status: 0, events: 0})
  const counted: Record<StoreFile, number> = {status: 0, events: 0}
  new Counter({
    name: 'kube_node_store_writes_total',
    help: 'Cumulative number of files written by the status and event stores (at most one per pod and second each).',
    labelNames: ['file'],
    registers,
    collect() {
      const now = storeCounts()
      for (const file of STORE_FILES) {
        this.inc({file}, Math.max(0, now[file] - counted[file]))
        counted[file] = now[file]
      }
    },
  })

  // A series that exists from the start, so a scrape shows zero instead of nothing.
  syncErrors.inc(0)

  return {
    syncError: () => syncErrors.inc(),
    setManifestErrors: (source, n) => manifestErrors.set({source}, n),
    countStoreWrites: (counts) => {
      storeCounts = counts
    },
  }
}
