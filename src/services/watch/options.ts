// What `watch` is given: its sources, its ports, its metrics and how it tells a service manager.
import type {KubeNodeMetrics} from '../../metrics/metrics.js'
import type {ProbeMetricsEndpoint} from '../../metrics/probes.js'
import type {NotifyPort} from '../../loop/ready-notifier.js'
import type {NotifySettings} from '../../node/systemd-notify.js'

export interface WatchOptions {
  manifestDir?: string
  manifestUrls: string[]
  manifestUrlHeaders: Record<string, string[]>
  fileCheckFrequencyMs: number
  httpCheckFrequencyMs: number
  resyncIntervalMs: number
  address: string
  port: number | 'ephemeral'
  healthzPort: number | 'ephemeral'
  /** Where healthzPort listens (--healthz-bind-address, healthzBindAddress); default `address`. */
  healthzAddress?: string | undefined
  signal: AbortSignal
  metrics: KubeNodeMetrics
  /** /metrics/probes; the node's ProbeManager must feed the same one (createNode's probeMetrics). */
  probeMetrics?: ProbeMetricsEndpoint | undefined
  /** Container log rotation; what is not given takes the kubelet's defaults (10 MiB, 5 files). */
  logRotation?: {maxSizeBytes?: number | undefined; maxFiles?: number | undefined}
  /** kube-node's version, for the API's /version. */
  version?: string
  /** Serve the read-only Kubernetes API on a non-loopback --address too (pods without authentication). */
  allowRemoteApi?: boolean
  /** Run by a service manager (NOTIFY_SOCKET): readiness, status, watchdog and stop notifications. */
  notify?: (NotifySettings & {port?: NotifyPort}) | undefined
  /** Called once everything is up, with the ports actually bound (0 = disabled). */
  onReady?: (info: {port: number; healthzPort: number}) => void
}
