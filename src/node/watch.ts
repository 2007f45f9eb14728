// `watch`: the daemon. Sources feed the pod-config merge, whose operations, with PLEG events and
// the loop's own ticks, drive the pod workers; a small HTTP server exposes health, pods and
// metrics. Stops cleanly on the abort signal and leaves the pods running.
import type {KubeNode} from './create-node.js'
import type {Pod} from '../api/types.js'
import type {ManifestSource} from '../sources/types.js'
import {acquireLock} from './lock.js'
import {ManifestErrors} from './manifest-errors.js'
import {MANIFEST_ERROR_ANNOTATION} from '../status/manifest-error.js'
import {createFileSource} from '../sources/file-source.js'
import {createHttpSource} from '../sources/http-source.js'
import {IssueLog} from '../sources/issue-log.js'
import {PodConfig} from '../sources/pod-config.js'
import {Pleg} from '../pleg/relist.js'
import {SyncLoop} from '../loop/sync-loop.js'
import {isLoopback, startServer} from '../server/server.js'
import {createKubeApi} from '../server/kube-api/handler.js'
import {kubeApiData} from './kube-api-data.js'
import {localServerUrl, writeApiAddress} from './api-address.js'
import {newApiCertificate, newApiToken, writeApiCredential} from './api-credential.js'
import {startApiTls} from '../server/api-tls.js'
import {toPodList} from './get.js'
import {generatePodStatus} from '../status/generate.js'
import {formatIssue} from '../util/errors.js'
import type {KubeNodeMetrics} from './metrics.js'
import type {ProbeMetricsEndpoint} from './probe-metrics.js'
import {resourceMetrics} from './resource-collector.js'
import {readNodeInfo} from '../host/node-info.js'
import {DEFAULT_LOG_ROTATION} from '../apply/log-rotation.js'
import {DEFAULT_MAX_PODS} from './config.js'
import {StatusStore, readAllStatusRecords} from '../store/status-store.js'
import {restoreInstanceStart} from './seed-back-off.js'
import {currentWriter} from './process-identity.js'
import {ReadyNotifier, type NotifyPort} from '../loop/ready-notifier.js'
import {systemdNotifyPort, type NotifySettings} from './systemd-notify.js'

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

/** Annotation on /pods items whose manifest is currently broken (the last good version runs). */
export {MANIFEST_ERROR_ANNOTATION}

/** The manifest directory (if any) and every URL, as sources. */
function createSources(node: KubeNode, opts: WatchOptions): ManifestSource[] {
  const {logger, clock} = node
  const {nodeName, validate} = node.config
  return [
    ...(opts.manifestDir ? [createFileSource({path: opts.manifestDir, nodeName, validate, checkFrequencyMs: opts.fileCheckFrequencyMs, logger, clock, fs: node.fs})] : []),
    ...opts.manifestUrls.map((url) => createHttpSource({url, headers: opts.manifestUrlHeaders, nodeName, validate, checkFrequencyMs: opts.httpCheckFrequencyMs, logger})),
  ]
}

/** /pods: every desired pod with the status the loop computed, and its manifest's problems. */
function podsView(node: KubeNode, loop: SyncLoop, podConfig: PodConfig): () => unknown {
  return () => {
    const issues = podConfig.issues()
    const items: Pod[] = loop.statuses().map(({sp, status}) => {
      const broken = issues.filter((i) => i.location === sp.source.location)
      const annotations = {...(sp.pod.metadata.annotations ?? {})}
      if (broken.length > 0) annotations[MANIFEST_ERROR_ANNOTATION] = broken.map(formatIssue).join('; ')
      return {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {...sp.pod.metadata, annotations},
        spec: sp.pod.spec,
        status: status ?? generatePodStatus({sp, runtime: node.cache.get(sp.pod.metadata.uid), probes: new Map(), waiting: new Map()}),
      }
    })
    return toPodList(items)
  }
}

export async function watchPods(node: KubeNode, opts: WatchOptions): Promise<void> {
  const {logger, clock} = node
  // systemd's start timeout runs from here on: so does the wait for READY=1.
  const startedAt = clock.now()
  const lock = await acquireLock(node.config.rootDir)
  try {
    // The pods' instances keep the starts the process before this one recorded (a restart of
    // watch gives no new active deadline window).
    for (const record of await readAllStatusRecords(node.fs, node.config.rootDir).catch(() => [])) restoreInstanceStart(node, record)
    const sources = createSources(node, opts)
    const podConfig = new PodConfig(sources.map((s) => s.name), node.config.maxPods ?? DEFAULT_MAX_PODS)
    const capacityLog = new IssueLog('all sources', logger, 'pods not added')
    const statusRecorder = new StatusStore({fs: node.fs, rootDir: node.config.rootDir, clock, logger}, currentWriter('watch'))
    const manifestErrors = new ManifestErrors({rootDir: node.config.rootDir, events: node.events, clock, logger, writer: currentWriter('watch')})
    opts.metrics.countStoreWrites(() => ({status: statusRecorder.writeCount(), events: node.events.writeCount()}))
    const pleg = new Pleg(node.cache, clock, logger, {periodMs: 1000, unhealthyThresholdMs: 3 * 60_000}, opts.metrics.pleg)
    const loop = new SyncLoop(
      {
        sync: node.sync,
        logger,
        clock,
        sourcesReady: () => podConfig.allSourcesReady(),
        objects: () => podConfig.objects(),
        node: readNodeInfo(node.config.nodeName, node.config.maxPods ?? DEFAULT_MAX_PODS),
        metrics: opts.metrics,
        statusRecorder,
      },
      {
        resyncIntervalMs: opts.resyncIntervalMs,
        parallelism: node.config.parallelism,
        logRotation: {
          maxSizeBytes: opts.logRotation?.maxSizeBytes ?? DEFAULT_LOG_ROTATION.maxSizeBytes,
          maxFiles: opts.logRotation?.maxFiles ?? DEFAULT_LOG_ROTATION.maxFiles,
        },
      },
    )

    opts.metrics.countPods(() => loop.podCounts())

    // Adopt what already runs before the first source speaks, so nothing is restarted.
    await pleg.relist()
    loop.start()
    pleg.start((events) => loop.handleLifecycleEvents(events))
    node.onProbeChange((uid) => loop.handleProbeChange(uid))
    for (const s of sources) {
      s.start((snapshot) => {
        const updates = podConfig.apply(snapshot, clock.now())
        manifestErrors.update(podConfig.pods(), podConfig.issues())
        capacityLog.report(podConfig.capacityIssues(), () => false)
        opts.metrics.setManifestErrors(snapshot.source, snapshot.issues.length)
        loop.handleUpdates(updates)
      })
    }
    if (sources.length === 0) logger.warn('No manifest source given: kube-node will only keep what it already runs')

    const remote = !isLoopback(opts.address)
    if (remote && opts.allowRemoteApi) logger.warn('Serving the Kubernetes API on a non-loopback address (--allow-remote-api): anyone who can reach this address can read every pod and its environment; logs and events need the kubeconfig credential, which crosses the network in clear text', {address: opts.address})
    const apiToken = newApiToken()
    const kubeApi = createKubeApi({
      data: kubeApiData(node, opts.version ?? '0.0.0'),
      logger,
      now: () => clock.now(),
      refusal: remote && !opts.allowRemoteApi ? `kube-node serves its Kubernetes API on a loopback --address only; this watch listens on ${opts.address}: start it with --allow-remote-api to serve the API there (pods have no authentication there)` : undefined,
      // Without --allow-remote-api, only loopback Host names are served (no DNS rebinding).
      anyHost: opts.allowRemoteApi,
      credential: apiToken,
    })
    const server = await startServer({
      address: opts.address,
      port: opts.port,
      healthzPort: opts.healthzPort,
      healthzAddress: opts.healthzAddress,
      logger,
      handlers: {
        pods: podsView(node, loop, podConfig),
        healthz: () => {
          const now = clock.now()
          const p = pleg.healthy(now)
          if (!p.ok) return p
          return loop.healthy(now)
        },
        metrics: () => opts.metrics.text(),
        metricsProbes: opts.probeMetrics && (() => opts.probeMetrics?.text() ?? Promise.resolve('')),
        metricsResource: resourceMetrics({runtime: node.runtime, pods: () => node.cache.all(), readText: (path) => node.fs.readText(path), clock, logger}),
        kubeApi,
      },
    })
    // kubectl sends the token only over TLS: the API also listens there, and kubeconfig points at it.
    const servesApi = server.port !== 0 && (!remote || opts.allowRemoteApi)
    const certificate = servesApi ? newApiCertificate(opts.address, new Date()) : undefined
    const apiTls = certificate && (await startApiTls({address: opts.address, certificate, api: kubeApi, logger}))
    // The credential first: kubeconfig trusts the address file, then reads the credential beside it.
    const forgetApiCredential = certificate ? await writeApiCredential(node.config.rootDir, {token: apiToken, certificate: certificate.certPem}) : async () => {}
    const forgetApiAddress = apiTls ? await writeApiAddress(node.config.rootDir, localServerUrl(opts.address, apiTls.port, 'https')) : async () => {}
    logger.info('kube-node is watching', {
      sources: sources.map((s) => s.name).join(','),
      port: server.port || undefined,
      apiTlsPort: apiTls?.port,
      healthzPort: server.healthzPort || undefined,
      node: node.config.nodeName,
    })
    opts.onReady?.({port: server.port, healthzPort: server.healthzPort})
    const notifier =
      opts.notify &&
      new ReadyNotifier({port: opts.notify.port ?? systemdNotifyPort(logger), mode: opts.notify.mode, watchdogMs: opts.notify.watchdogMs, readyLimitMs: opts.notify.readyLimitMs, startedAt, clock, logger})
    notifier?.start({
      firstSyncDone: () => podConfig.allSourcesReady() && loop.statuses().every((p) => p.status !== undefined),
      pods: () => loop.statuses().map((p) => p.status),
      healthy: () => pleg.healthy(clock.now()).ok && loop.healthy(clock.now()).ok,
    })

    await new Promise<void>((resolve) => {
      if (opts.signal.aborted) resolve()
      opts.signal.addEventListener('abort', () => resolve(), {once: true})
    })
    logger.info('Stopping: pods keep running')
    await notifier?.stop()
    await Promise.all(sources.map((s) => s.stop()))
    await pleg.stop()
    await loop.stop(5_000)
    await Promise.all([statusRecorder.flush(), node.events.flush(), manifestErrors.flush()])
    await forgetApiAddress()
    await forgetApiCredential()
    kubeApi.close()
    await apiTls?.close()
    await server.close()
  } finally {
    await lock.release()
  }
}
