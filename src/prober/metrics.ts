// What probe workers tell whoever counts probes (metrics/probes.ts, served on /metrics/probes
// as the kubelet's prober_probe_total and prober_probe_duration_seconds). No metrics library here.
import type {ProbeType} from './probe.js'

/** The kubelet's `result` label values. */
export type ProbeMetricResult = 'successful' | 'failed' | 'unknown'

/** Which probe: one series set per (pod, container, probe type). */
export interface ProbeIdentity {
  probeType: ProbeType
  container: string
  pod: string
  namespace: string
  podUid: string
}

export interface ProbeMetrics {
  /** One run of a probe that gave a result (a run that errored is ignored, as the kubelet does). */
  observe(probe: ProbeIdentity, result: ProbeMetricResult, seconds: number): void
  /** The probe's worker stopped: its series go, as the kubelet deletes them. */
  forget(probe: ProbeIdentity): void
}
