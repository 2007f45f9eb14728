// `watch`: the daemon. Sources feed the pod-config merge, whose operations, with PLEG events and
// the loop's own ticks, drive the pod workers; a small HTTP server exposes health, pods and
// metrics. Stops cleanly on the abort signal and leaves the pods running.
import type {KubeNode} from './create-node.js'
import type {Pod} from '../api/types.js'
import type {ManifestSource} from '../sources/types.js'
import {acquireLock} from './lock.js'
import {createFileSource} from '../sources/file-source.js'
import {createHttpSource} from '../sources/http-source.js'
import {PodConfig} from '../sources/pod-config.js'
import {Pleg} from '../pleg/relist.js'
import {SyncLoop} from '../loop/sync-loop.js'
import {startServer} from '../server/server.js'
import {toPodList} from './get.js'
import {generatePodStatus} from '../status/generate.js'
import {formatIssue} from '../util/errors.js'
import type {KubeNodeMetrics} from './metrics.js'
import {readNodeInfo} from '../util/node-info.js'
import {DEFAULT_LOG_ROTATION} from '../apply/log-rotation.js'
import {DEFAULT_MAX_PODS} from './config.js'
import {StatusStore} from '../store/status-store.js'
import {currentWriter} from './process-identity.js'

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
  signal: AbortSignal
  metrics: KubeNodeMetrics
  /** Container log rotation; what is not given takes the kubelet's defaults (10 MiB, 5 files). */
  logRotation?: {maxSizeBytes?: number | undefined; maxFiles?: number | undefined}
  /** Called once everything is up, with the ports actually bound (0 = disabled). */
  onReady?: (info: {port: number; healthzPort: number}) => void
}

/** Annotation on /pods items whose manifest is currently broken (the last good version runs). */
export const MANIFEST_ERROR_ANNOTATION = 'kube-node.io/manifest-error'

/** The manifest directory (if any) and every URL, as sources. */
function createSources(node: KubeNode, opts: WatchOptions): ManifestSource[] {
  const {logger, clock} = node
  const {nodeName, validate} = node.config
  return [
    ...(opts.manifestDir ? [createFileSource({path: opts.manifestDir, nodeName, validate, checkFrequencyMs: opts.fileCheckFrequencyMs, logger, clock})] : []),
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
  const lock = await acquireLock(node.config.rootDir)
  try {
    const sources = createSources(node, opts)
    const podConfig = new PodConfig(sources.map((s) => s.name))
    const statusRecorder = new StatusStore({fs: node.fs, rootDir: node.config.rootDir, clock, logger}, currentWriter('watch'))
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

    // Adopt what already runs before the first source speaks, so nothing is restarted.
    await pleg.relist()
    loop.start()
    pleg.start((events) => loop.handleLifecycleEvents(events))
    node.onProbeChange((uid) => loop.handleProbeChange(uid))
    for (const s of sources) {
      s.start((snapshot) => {
        const updates = podConfig.apply(snapshot, clock.now())
        opts.metrics.setManifestErrors(snapshot.source, snapshot.issues.length)
        loop.handleUpdates(updates)
      })
    }
    if (sources.length === 0) logger.warn('No manifest source given: kube-node will only keep what it already runs')

    const server = await startServer({
      address: opts.address,
      port: opts.port,
      healthzPort: opts.healthzPort,
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
      },
    })
    logger.info('kube-node is watching', {
      sources: sources.map((s) => s.name).join(','),
      port: server.port || undefined,
      healthzPort: server.healthzPort || undefined,
      node: node.config.nodeName,
    })
    opts.onReady?.({port: server.port, healthzPort: server.healthzPort})

    await new Promise<void>((resolve) => {
      if (opts.signal.aborted) resolve()
      opts.signal.addEventListener('abort', () => resolve(), {once: true})
    })
    logger.info('Stopping: pods keep running')
    await Promise.all(sources.map((s) => s.stop()))
    await pleg.stop()
    await loop.stop(5_000)
    await Promise.all([statusRecorder.flush(), node.events.flush()])
    await server.close()
  } finally {
    await lock.release()
  }
}
