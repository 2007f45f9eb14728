// The PLEG families: relist duration and interval, when it was last seen, and the running pods
// and containers each relist counts.
import {Gauge, Histogram, type Registry} from 'prom-client'
import type {RuntimeContainerState} from '../kuberuntime/model.js'
import type {PlegMetrics} from '../pleg/relist.js'
import {DEF_BUCKETS} from './buckets.js'

const CONTAINER_STATES: readonly RuntimeContainerState[] = ['created', 'running', 'exited', 'unknown']

export type SetRunning = (pods: number, containersByState: Partial<Record<RuntimeContainerState, number>>) => void

export function plegMetrics(registers: Registry[]): PlegMetrics & {setRunning: SetRunning} {
  const relistDuration = new Histogram({name: 'kubelet_pleg_relist_duration_seconds', help: 'Duration in seconds for relisting pods in PLEG.', buckets: DEF_BUCKETS, registers})
  const relistInterval = new Histogram({name: 'kubelet_pleg_relist_interval_seconds', help: 'Interval in seconds between relisting in PLEG.', buckets: DEF_BUCKETS, registers})
  const lastSeen = new Gauge({name: 'kubelet_pleg_last_seen_seconds', help: 'Timestamp in seconds when PLEG was last seen active.', registers})
  const runningPods = new Gauge({name: 'kubelet_running_pods', help: 'Number of pods that have a running pod sandbox', registers})
  const runningContainers = new Gauge({name: 'kubelet_running_containers', help: 'Number of containers currently running', labelNames: ['container_state'], registers})

  // Series that exist from the start, so a scrape shows zeros instead of nothing.
  runningPods.set(0)
  for (const state of CONTAINER_STATES) runningContainers.set({container_state: state}, 0)

  return {
    observeRelist(durationMs, intervalMs) {
      relistDuration.observe(durationMs / 1000)
      if (intervalMs !== undefined) relistInterval.observe(intervalMs / 1000)
    },
    setLastSeen(epochMs) {
      lastSeen.set(epochMs / 1000)
    },
    setRunning(pods, byState) {
      runningPods.set(pods)
      for (const state of CONTAINER_STATES) runningContainers.set({container_state: state}, byState[state] ?? 0)
    },
  }
}
