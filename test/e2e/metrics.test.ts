// What Prometheus scrapes from `kube-node watch` on a real containerd: /metrics, /metrics/probes
// and /metrics/resource, each checked by promtool (Debian's prometheus package), with the
// kubelet's series for a pod that has probes.
import {describe, expect, it} from 'vitest'
import {spawnSync} from 'node:child_process'
import {createServer} from 'node:net'
import {BUSYBOX, NODE, eventually, makeDirs, manifestDir, startWatch, writeManifest, type Daemon} from './support.js'

const dirs = makeDirs()
let daemon: Daemon | undefined
const manifests = manifestDir(dirs, async () => {
  if (daemon) await daemon.stop('SIGTERM')
  daemon = undefined
})

const PROBED = `apiVersion: v1
kind: Pod
metadata:
  name: probed
spec:
  terminationGracePeriodSeconds: 2
  containers:
  - name: main
    image: ${BUSYBOX}
    imagePullPolicy: Always
    command: ["sh", "-c", "while true; do sleep 1; done"]
    readinessProbe:
      exec: {command: ["true"]}
      periodSeconds: 1
    livenessProbe:
      exec: {command: ["true"]}
      periodSeconds: 1
`

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as {port: number}).port
      s.close(() => resolve(port))
    })
  })
}

async function scrape(port: number, path: string): Promise<{contentType: string; body: string}> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`)
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`)
  return {contentType: res.headers.get('content-type') ?? '', body: await res.text()}
}

/** promtool's verdict on an exposition: '' and exit 0 when it finds nothing wrong. */
function promtool(body: string): {status: number | null; output: string} {
  const r = spawnSync('promtool', ['check', 'metrics'], {input: body, encoding: 'utf8'})
  if (r.error) throw r.error
  return {status: r.status, output: r.stdout + r.stderr}
}

const series = (body: string, prefix: string): string[] => body.split('\n').filter((l) => l.startsWith(prefix))
const pod = `probed-${NODE}`

describe('kube-node watch metrics endpoints (real containerd)', () => {
  it('serves the kubelet metrics, probe metrics and resource metrics, each passing promtool check metrics', async () => {
    writeManifest(manifests, 'probed.yaml', PROBED)
    const port = await freePort()
    daemon = startWatch(dirs, [manifests, '--file-check-frequency', '1s', '--port', String(port), '--healthz-port', '0'])

    const probes = await eventually(async () => {
      const {body} = await scrape(port, '/metrics/probes')
      const ok = series(body, `prober_probe_total{probe_type="Readiness",result="successful",container="main",pod="${pod}",namespace="default",pod_uid="`)
      return ok.length === 1 && series(body, 'prober_probe_total{probe_type="Liveness",result="successful"').length === 1 ? body : undefined
    }, 60_000, 'successful readiness and liveness probes on /metrics/probes')
    expect(probes).toMatch(new RegExp(`^prober_probe_duration_seconds_count\\{probe_type="Readiness",container="main",pod="${pod}",namespace="default"\\} [1-9]`, 'm'))

    const resource = await eventually(async () => {
      const {body} = await scrape(port, '/metrics/resource')
      return series(body, `container_cpu_usage_seconds_total{container="main",pod="${pod}",namespace="default"}`).length === 1 ? body : undefined
    }, 30_000, 'the container on /metrics/resource')
    // Usage samples carry the runtime's timestamp (ms), as the kubelet's do.
    expect(resource).toMatch(new RegExp(`^container_memory_working_set_bytes\\{container="main",pod="${pod}",namespace="default"\\} [1-9]\\d* \\d{13}$`, 'm'))
    expect(resource).toMatch(new RegExp(`^container_start_time_seconds\\{container="main",pod="${pod}",namespace="default"\\} \\d+(\\.\\d+)?$`, 'm'))
    expect(resource).toMatch(new RegExp(`^pod_cpu_usage_seconds_total\\{pod="${pod}",namespace="default"\\} [\\d.e+-]+ \\d{13}$`, 'm'))
    expect(resource).toMatch(/^node_cpu_usage_seconds_total [\d.e+]+ \d{13}$/m)
    expect(resource).toMatch(/^node_memory_working_set_bytes [1-9]\d* \d{13}$/m)
    expect(resource).toMatch(/^resource_scrape_error 0$/m)

    const main = await scrape(port, '/metrics')
    const value = (s: string): number => Number(series(main.body, s + ' ')[0]?.slice(s.length + 1))
    expect(value('kubelet_started_pods_total')).toBeGreaterThanOrEqual(1)
    expect(value('kubelet_started_pods_errors_total')).toBe(0)
    expect(value('kubelet_started_containers_total{container_type="container"}')).toBeGreaterThanOrEqual(1)
    expect(value('kubelet_desired_pods{static="true"}')).toBe(1)
    expect(value('kubelet_active_pods{static="true"}')).toBe(1)
    expect(value('kubelet_working_pods{lifecycle="sync",config="desired",static="true"}')).toBe(1)
    expect(value('kubelet_run_podsandbox_duration_seconds_count{runtime_handler=""}')).toBeGreaterThanOrEqual(1)
    expect(series(main.body, 'kubelet_image_pull_duration_seconds_count{image_size_in_bytes="0-10MB"}')).toHaveLength(1)
    expect(main.body).toMatch(/^kubernetes_build_info\{major="\d+",minor="\d+",git_version="v[^"]+",.*compiler="node",platform="linux\/\w+"\} 1$/m)

    for (const [path, body] of [['/metrics', main.body], ['/metrics/probes', (await scrape(port, '/metrics/probes')).body], ['/metrics/resource', (await scrape(port, '/metrics/resource')).body]] as const) {
      expect((await scrape(port, path)).contentType).toBe('text/plain; version=0.0.4; charset=utf-8')
      expect(promtool(body), `promtool check metrics on ${path}`).toEqual({status: 0, output: ''})
    }
  })
})
