// `/metrics/probes`: the kubelet's prober_probe_total and prober_probe_duration_seconds
// (pkg/kubelet/prober/prober_manager.go), on a registry of their own since the kubelet serves them
// on a path of their own. As there: a run that gave a result is counted, its duration observed
// only when it succeeded (or its result is unknown), and a stopped worker's series are deleted.
import {Counter, Histogram, Registry} from 'prom-client'
import type {ProbeIdentity, ProbeMetrics} from '../prober/metrics.js'
import type {ProbeType} from '../prober/probe.js'
import {DEF_BUCKETS} from './buckets.js'

export interface ProbeMetricsEndpoint extends ProbeMetrics {
  text(): Promise<string>
  readonly contentType: string
}

const RESULTS = ['successful', 'failed', 'unknown'] as const

/** The kubelet's probe_type values: `Liveness`, `Readiness`, `Startup`. */
export function probeTypeLabel(type: ProbeType): string {
  return `${type[0]?.toUpperCase() ?? ''}${type.slice(1)}`
}

export function createProbeMetrics(): ProbeMetricsEndpoint {
  const registry = new Registry()
  const total = new Counter({
    name: 'prober_probe_total',
    help: 'Cumulative number of a liveness, readiness or startup probe for a container by result.',
    labelNames: ['probe_type', 'result', 'container', 'pod', 'namespace', 'pod_uid'],
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'prober_probe_duration_seconds',
    help: 'Duration in seconds for a probe response.',
    labelNames: ['probe_type', 'container', 'pod', 'namespace'],
    buckets: DEF_BUCKETS,
    registers: [registry],
  })
  const totalLabels = (p: ProbeIdentity, result: string): Record<string, string> => ({
    probe_type: probeTypeLabel(p.probeType),
    result,
    container: p.container,
    pod: p.pod,
    namespace: p.namespace,
    pod_uid: p.podUid,
  })
  const durationLabels = (p: ProbeIdentity): Record<string, string> => ({probe_type: probeTypeLabel(p.probeType), container: p.container, pod: p.pod, namespace: p.namespace})
  return {
    contentType: registry.contentType,
    observe(probe, result, seconds) {
      total.inc(totalLabels(probe, result))
      if (result !== 'failed') duration.observe(durationLabels(probe), seconds)
    },
    forget(probe) {
      for (const result of RESULTS) total.remove(totalLabels(probe, result))
      duration.remove(durationLabels(probe))
    },
    text: () => registry.metrics(),
  }
}
