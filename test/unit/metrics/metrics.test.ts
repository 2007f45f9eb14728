import {describe, expect, it} from 'vitest'
import {createMetrics} from '../../../src/metrics/metrics.js'
import {runtimeOperationType} from '../../../src/metrics/cri.js'

/** The value of one series in exposition text, e.g. `kubelet_running_pods` or `x{a="b"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('createMetrics', () => {
  it('exposes every metric under the kubelet names, and kube-node own ones', async () => {
    const text = await createMetrics().text()
    for (const name of [
      'kubelet_pod_start_duration_seconds',
      'kubelet_pod_worker_duration_seconds',
      'kubelet_pleg_relist_duration_seconds',
      'kubelet_pleg_relist_interval_seconds',
      'kubelet_pleg_last_seen_seconds',
      'kubelet_runtime_operations_total',
      'kubelet_runtime_operations_errors_total',
      'kubelet_runtime_operations_duration_seconds',
      'kubelet_running_pods',
      'kubelet_running_containers',
      'kube_node_sync_errors_total',
      'kube_node_manifest_errors',
    ]) {
      expect(text).toContain(`# TYPE ${name} `)
    }
    expect(sample(text, 'kubelet_running_pods')).toBe(0)
    expect(sample(text, 'kube_node_sync_errors_total')).toBe(0)
  })

  it('counts CRI operations, errors and durations by the kubelet operation_type', async () => {
    const m = createMetrics()
    m.cri.observe('ListPodSandbox', 4, false)
    m.cri.observe('ListPodSandbox', 6, false)
    m.cri.observe('RunPodSandbox', 250, true)
    const text = await m.text()
    expect(sample(text, 'kubelet_runtime_operations_total{operation_type="list_podsandbox"}')).toBe(2)
    expect(sample(text, 'kubelet_runtime_operations_total{operation_type="run_podsandbox"}')).toBe(1)
    expect(sample(text, 'kubelet_runtime_operations_errors_total{operation_type="run_podsandbox"}')).toBe(1)
    expect(sample(text, 'kubelet_runtime_operations_errors_total{operation_type="list_podsandbox"}')).toBeUndefined()
    expect(sample(text, 'kubelet_runtime_operations_duration_seconds_sum{operation_type="list_podsandbox"}')).toBeCloseTo(0.01)
    expect(sample(text, 'kubelet_runtime_operations_duration_seconds_bucket{le="0.005",operation_type="list_podsandbox"}')).toBe(1)
  })

  it.each([
    ['RunPodSandbox', 'run_podsandbox'],
    ['PodSandboxStatus', 'podsandbox_status'],
    ['ListContainers', 'list_containers'],
    ['ContainerStatus', 'container_status'],
    ['ReopenContainerLog', 'reopen_container_log'],
    ['PullImage', 'pull_image'],
    ['Version', 'version'],
  ])('names the CRI call %s as %s', (rpc, op) => {
    expect(runtimeOperationType(rpc)).toBe(op)
  })

  it('records PLEG relists in seconds and the last time the PLEG was seen', async () => {
    const m = createMetrics()
    m.pleg.observeRelist(20, undefined)
    m.pleg.observeRelist(30, 1000)
    m.pleg.setLastSeen(1_700_000_000_500)
    const text = await m.text()
    expect(sample(text, 'kubelet_pleg_relist_duration_seconds_count')).toBe(2)
    expect(sample(text, 'kubelet_pleg_relist_duration_seconds_sum')).toBeCloseTo(0.05)
    expect(sample(text, 'kubelet_pleg_relist_interval_seconds_count')).toBe(1)
    expect(sample(text, 'kubelet_pleg_relist_interval_seconds_sum')).toBe(1)
    expect(sample(text, 'kubelet_pleg_last_seen_seconds')).toBe(1_700_000_000.5)
  })

  it('sets running pods and containers by state, zeroing states not given', async () => {
    const m = createMetrics()
    m.setRunning(2, {running: 3, exited: 1})
    m.pleg.setRunning?.(1, {created: 0, running: 1, exited: 0, unknown: 0})
    const text = await m.text()
    expect(sample(text, 'kubelet_running_pods')).toBe(1)
    expect(sample(text, 'kubelet_running_containers{container_state="running"}')).toBe(1)
    expect(sample(text, 'kubelet_running_containers{container_state="exited"}')).toBe(0)
    expect(sample(text, 'kubelet_running_containers{container_state="created"}')).toBe(0)
  })

  it('observes pod start and pod worker durations, sync errors and manifest errors', async () => {
    const m = createMetrics()
    m.observePodStart(3.5)
    m.observeWorker('create', 0.2)
    m.observeWorker('kill', 1.5)
    m.syncError()
    m.syncError()
    m.setManifestErrors('/etc/kubernetes/manifests', 2)
    const text = await m.text()
    expect(sample(text, 'kubelet_pod_start_duration_seconds_bucket{le="4"}')).toBe(1)
    expect(sample(text, 'kubelet_pod_start_duration_seconds_bucket{le="3"}')).toBe(0)
    expect(sample(text, 'kubelet_pod_worker_duration_seconds_count{operation_type="create"}')).toBe(1)
    expect(sample(text, 'kubelet_pod_worker_duration_seconds_count{operation_type="kill"}')).toBe(1)
    expect(sample(text, 'kube_node_sync_errors_total')).toBe(2)
    expect(sample(text, 'kube_node_manifest_errors{source="/etc/kubernetes/manifests"}')).toBe(2)
  })

  it('keeps each instance apart (no global registry)', async () => {
    const a = createMetrics()
    const b = createMetrics()
    a.syncError()
    expect(sample(await b.text(), 'kube_node_sync_errors_total')).toBe(0)
    expect(a.contentType).toBe('text/plain; version=0.0.4; charset=utf-8')
  })
})
