import {describe, expect, it} from 'vitest'
import {createProbeMetrics} from '../../../src/metrics/probes.js'
import type {ProbeIdentity} from '../../../src/prober/metrics.js'

const web: ProbeIdentity = {probeType: 'readiness', container: 'app', pod: 'web-n1', namespace: 'default', podUid: 'u1'}

describe('/metrics/probes', () => {
  it('counts probe runs by result and times the successful ones, under the kubelet names and labels', async () => {
    const m = createProbeMetrics()
    m.observe(web, 'successful', 0.02)
    m.observe(web, 'successful', 0.03)
    m.observe(web, 'failed', 1)
    m.observe({...web, probeType: 'liveness'}, 'unknown', 0.2)
    const text = await m.text()
    expect(text).toContain('# TYPE prober_probe_total counter\n')
    expect(text).toContain('# TYPE prober_probe_duration_seconds histogram\n')
    expect(text).toContain('prober_probe_total{probe_type="Readiness",result="successful",container="app",pod="web-n1",namespace="default",pod_uid="u1"} 2\n')
    expect(text).toContain('prober_probe_total{probe_type="Readiness",result="failed",container="app",pod="web-n1",namespace="default",pod_uid="u1"} 1\n')
    expect(text).toContain('prober_probe_total{probe_type="Liveness",result="unknown",container="app",pod="web-n1",namespace="default",pod_uid="u1"} 1\n')
    expect(text).toContain('prober_probe_duration_seconds_count{probe_type="Readiness",container="app",pod="web-n1",namespace="default"} 2\n')
    expect(text).toContain('prober_probe_duration_seconds_bucket{le="0.025",probe_type="Readiness",container="app",pod="web-n1",namespace="default"} 1\n')
    expect(text).toContain('prober_probe_duration_seconds_count{probe_type="Liveness",container="app",pod="web-n1",namespace="default"} 1\n')
  })

  it('drops the series of a probe whose worker stopped', async () => {
    const m = createProbeMetrics()
    m.observe(web, 'successful', 0.01)
    m.observe({...web, container: 'other'}, 'failed', 0.01)
    m.forget(web)
    const text = await m.text()
    expect(text).not.toContain('container="app"')
    expect(text).toContain('container="other"')
  })
})
