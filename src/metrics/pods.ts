// The pod workers' families: the kubelet's desired, active and working pod counts (read from the
// loop at each scrape), the time a pod takes to start and the duration of one worker pass.
import {Gauge, Histogram, type Registry} from 'prom-client'
import {countPods, type PodCounts} from '../loop/pod-counts.js'
import {DEF_BUCKETS, POD_START_BUCKETS, STATIC} from './buckets.js'

export type WorkerOperation = 'create' | 'update' | 'sync' | 'kill'

export interface PodMetrics {
  /** Where kubelet_desired_pods, kubelet_active_pods and kubelet_working_pods come from, read at each scrape. */
  countPods(counts: () => PodCounts): void
  /** Time from kube-node first seeing a pod to all its containers running. */
  observePodStart(seconds: number): void
  /** One pod worker pass (a sync of one pod). */
  observeWorker(operation: WorkerOperation, seconds: number): void
}

export function podMetrics(registers: Registry[]): PodMetrics {
  // Read at each scrape, from the loop's own state: nothing to keep in step. The kubelet also
  // reports static="false"; here it is always 0.
  let counts: () => PodCounts = () => countPods([], [])
  new Gauge({
    name: 'kubelet_desired_pods',
    help: 'The number of pods the kubelet is being instructed to run. static is true if the pod is not from the apiserver.',
    labelNames: ['static'],
    registers,
    collect() {
      this.set({static: STATIC}, counts().desired)
      this.set({static: 'false'}, 0)
    },
  })
  new Gauge({
    name: 'kubelet_active_pods',
    help: 'The number of pods the kubelet considers active and which are being considered when admitting new pods. static is true if the pod is not from the apiserver.',
    labelNames: ['static'],
    registers,
    collect() {
      this.set({static: STATIC}, counts().active)
      this.set({static: 'false'}, 0)
    },
  })
  new Gauge({
    name: 'kubelet_working_pods',
    help: 'Number of pods the kubelet is actually running, broken down by lifecycle phase, whether the pod is desired, orphaned, or runtime only (also orphaned), and whether the pod is static. An orphaned pod has been removed from local configuration or force deleted in the API and consumes resources that are not otherwise visible.',
    labelNames: ['lifecycle', 'config', 'static'],
    registers,
    collect() {
      for (const w of counts().working) {
        this.set({lifecycle: w.lifecycle, config: w.config, static: STATIC}, w.count)
        this.set({lifecycle: w.lifecycle, config: w.config, static: 'false'}, 0)
      }
    },
  })
  const podStart = new Histogram({
    name: 'kubelet_pod_start_duration_seconds',
    help: 'Duration in seconds from kube-node seeing a pod for the first time to the pod starting to run',
    buckets: POD_START_BUCKETS,
    registers,
  })
  const podWorker = new Histogram({
    name: 'kubelet_pod_worker_duration_seconds',
    help: 'Duration in seconds to sync a single pod. Broken down by operation type: create, update, sync or kill',
    labelNames: ['operation_type'],
    buckets: DEF_BUCKETS,
    registers,
  })
  return {
    countPods: (source) => {
      counts = source
    },
    observePodStart: (seconds) => podStart.observe(seconds),
    observeWorker: (operation, seconds) => podWorker.observe({operation_type: operation}, seconds),
  }
}
