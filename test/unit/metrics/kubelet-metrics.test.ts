import {describe, expect, it} from 'vitest'
import {createMetrics} from '../../../src/metrics/metrics.js'
import {containerTypeLabel, imageSizeBucket} from '../../../src/metrics/sync.js'
import {buildInfo} from '../../../src/metrics/build-info.js'
import {countPods} from '../../../src/loop/pod-counts.js'

/** The value of one series in exposition text, e.g. `kubelet_started_pods_total` or `x{a="b"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('the kubelet pod and container metrics on /metrics', () => {
  it('has every metric under the kubelet name and type, with zeros before anything happened', async () => {
    const text = await createMetrics({version: '0.1.0'}).text()
    for (const [name, type] of [
      ['kubelet_started_pods_total', 'counter'],
      ['kubelet_started_pods_errors_total', 'counter'],
      ['kubelet_started_containers_total', 'counter'],
      ['kubelet_started_containers_errors_total', 'counter'],
      ['kubelet_restarted_pods_total', 'counter'],
      ['kubelet_image_pull_duration_seconds', 'histogram'],
      ['kubelet_desired_pods', 'gauge'],
      ['kubelet_active_pods', 'gauge'],
      ['kubelet_working_pods', 'gauge'],
      ['kubelet_run_podsandbox_duration_seconds', 'histogram'],
      ['kubernetes_build_info', 'gauge'],
    ]) {
      expect(text).toContain(`# TYPE ${name} ${type}\n`)
    }
    expect(sample(text, 'kubelet_started_pods_total')).toBe(0)
    expect(sample(text, 'kubelet_started_containers_total{container_type="container"}')).toBe(0)
    expect(sample(text, 'kubelet_restarted_pods_total{static="true"}')).toBe(0)
    expect(sample(text, 'kubelet_desired_pods{static="true"}')).toBe(0)
    expect(sample(text, 'kubelet_working_pods{lifecycle="sync",config="desired",static="true"}')).toBe(0)
    expect(text).toMatch(/^kubernetes_build_info\{major="0",minor="1",git_version="v0\.1\.0",git_commit="",git_tree_state="",build_date="",go_version="v\d+\.\d+\.\d+",compiler="node",platform="linux\/\w+"\} 1$/m)
  })

  it('counts sandboxes and container starts, with the failure code as the kubelet labels it', async () => {
    const m = createMetrics()
    m.sync.podStarted(false)
    m.sync.podStarted(true)
    m.sync.containerStarted('regular')
    m.sync.containerStarted('init')
    m.sync.containerStarted('sidecar', 'CreateContainerError')
    m.sync.containerStarted('regular', 'ErrImagePull')
    const text = await m.text()
    expect(sample(text, 'kubelet_started_pods_total')).toBe(2)
    expect(sample(text, 'kubelet_started_pods_errors_total')).toBe(1)
    expect(sample(text, 'kubelet_started_containers_total{container_type="container"}')).toBe(2)
    expect(sample(text, 'kubelet_started_containers_total{container_type="init_container"}')).toBe(2)
    expect(sample(text, 'kubelet_started_containers_errors_total{container_type="init_container",code="CreateContainerError"}')).toBe(1)
    expect(sample(text, 'kubelet_started_containers_errors_total{container_type="container",code="ErrImagePull"}')).toBe(1)
  })

  it('times pulls by image size and sandbox creation by runtime handler, in the kubelet buckets', async () => {
    const m = createMetrics()
    m.sync.imagePulled(3, 5 * 1024 * 1024)
    m.sync.imagePulled(12, 0)
    m.cri.observeRunPodSandbox?.('', 300, false)
    m.cri.observeRunPodSandbox?.('runc', 50, true)
    const text = await m.text()
    expect(sample(text, 'kubelet_image_pull_duration_seconds_bucket{le="1",image_size_in_bytes="0-10MB"}')).toBe(0)
    expect(sample(text, 'kubelet_image_pull_duration_seconds_bucket{le="5",image_size_in_bytes="0-10MB"}')).toBe(1)
    expect(sample(text, 'kubelet_image_pull_duration_seconds_count{image_size_in_bytes="N/A"}')).toBe(1)
    expect(text).toContain('kubelet_image_pull_duration_seconds_bucket{le="3600",image_size_in_bytes="0-10MB"} 1\n')
    expect(sample(text, 'kubelet_run_podsandbox_duration_seconds_sum{runtime_handler=""}')).toBeCloseTo(0.3)
    expect(sample(text, 'kubelet_run_podsandbox_duration_seconds_bucket{le="0.05",runtime_handler="runc"}')).toBe(1)
    expect(sample(text, 'kubelet_run_podsandbox_errors_total{runtime_handler="runc"}')).toBe(1)
  })

  it('reads desired, active and working pods from the loop at each scrape', async () => {
    const m = createMetrics()
    let counts = countPods([], [])
    m.countPods(() => counts)
    counts = countPods(
      [
        {uid: 'a', rejected: false, phase: 'Running'},
        {uid: 'b', rejected: false, phase: 'Succeeded'},
        {uid: 'c', rejected: true, phase: 'Failed'},
      ],
      [{uid: 'gone', hadSpec: true}],
    )
    m.podRestarted()
    const text = await m.text()
    expect(sample(text, 'kubelet_desired_pods{static="true"}')).toBe(3)
    expect(sample(text, 'kubelet_desired_pods{static="false"}')).toBe(0)
    expect(sample(text, 'kubelet_active_pods{static="true"}')).toBe(1)
    expect(sample(text, 'kubelet_working_pods{lifecycle="sync",config="desired",static="true"}')).toBe(1)
    expect(sample(text, 'kubelet_working_pods{lifecycle="terminated",config="desired",static="true"}')).toBe(1)
    expect(sample(text, 'kubelet_working_pods{lifecycle="terminating",config="orphan",static="true"}')).toBe(1)
    expect(sample(text, 'kubelet_restarted_pods_total{static="true"}')).toBe(1)
  })

  it.each([
    [0, 'N/A'],
    [1, '0-10MB'],
    [10 * 1024 * 1024, '0-10MB'],
    [10 * 1024 * 1024 + 1, '10MB-100MB'],
    [700 * 1024 * 1024, '500MB-1GB'],
    [3 * 1024 ** 3, '1GB-5GB'],
    [200 * 1024 ** 3, 'GT100GB'],
  ])('labels an image of %d bytes %s', (bytes, label) => {
    expect(imageSizeBucket(bytes)).toBe(label)
  })

  it.each([
    ['regular', 'container'],
    ['init', 'init_container'],
    ['sidecar', 'init_container'],
  ] as const)('labels a %s container %s', (type, label) => {
    expect(containerTypeLabel(type)).toBe(label)
  })

  it('names kube-node builds in kubernetes_build_info without claiming a Kubernetes version', () => {
    expect(buildInfo('0.1.0', 'v20.20.0', 'linux', 'x64')).toEqual({
      major: '0', minor: '1', git_version: 'v0.1.0', git_commit: '', git_tree_state: '', build_date: '',
      go_version: 'v20.20.0', compiler: 'node', platform: 'linux/amd64',
    })
  })
})
