// The CRI families: kubelet_runtime_operations_* for every call and kubelet_run_podsandbox_*
// for sandbox creation, fed by cri/instrumented.ts.
import {Counter, Histogram, type Registry} from 'prom-client'
import type {CriMetrics} from '../cri/instrumented.js'
import {DEF_BUCKETS, RUNTIME_OPERATION_BUCKETS} from './buckets.js'

/**
 * The kubelet's operation_type for a CRI call: `RunPodSandbox` → `run_podsandbox`,
 * `ListContainers` → `list_containers`, `PodSandboxStatus` → `podsandbox_status`.
 */
export function runtimeOperationType(rpc: string): string {
  return rpc
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/pod_sandbox/g, 'podsandbox')
}

export function criMetrics(registers: Registry[]): Required<CriMetrics> {
  const labelNames = ['operation_type']
  const ops = new Counter({name: 'kubelet_runtime_operations_total', help: 'Cumulative number of runtime operations by operation type.', labelNames, registers})
  const errors = new Counter({name: 'kubelet_runtime_operations_errors_total', help: 'Cumulative number of runtime operation errors by operation type.', labelNames, registers})
  const duration = new Histogram({
    name: 'kubelet_runtime_operations_duration_seconds',
    help: 'Duration in seconds of runtime operations. Broken down by operation type.',
    labelNames,
    buckets: RUNTIME_OPERATION_BUCKETS,
    registers,
  })
  const runSandbox = new Histogram({
    name: 'kubelet_run_podsandbox_duration_seconds',
    help: 'Duration in seconds of the run_podsandbox operations. Broken down by RuntimeClass.Handler.',
    labelNames: ['runtime_handler'],
    buckets: DEF_BUCKETS,
    registers,
  })
  const runSandboxErrors = new Counter({
    name: 'kubelet_run_podsandbox_errors_total',
    help: 'Cumulative number of the run_podsandbox operation errors by RuntimeClass.Handler.',
    labelNames: ['runtime_handler'],
    registers,
  })
  return {
    observe(operation, durationMs, error) {
      const operation_type = runtimeOperationType(operation)
      ops.inc({operation_type})
      duration.observe({operation_type}, durationMs / 1000)
      if (error) errors.inc({operation_type})
    },
    observeRunPodSandbox(runtimeHandler, durationMs, error) {
      runSandbox.observe({runtime_handler: runtimeHandler}, durationMs / 1000)
      if (error) runSandboxErrors.inc({runtime_handler: runtimeHandler})
    },
  }
}
