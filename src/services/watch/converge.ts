// watch's converging half: the sources and their merge, the stores, the PLEG and the sync loop,
// started so that what already runs is adopted before the first source speaks (nothing restarts).
import type {KubeNode} from '../../node/create-node.js'
import type {ManifestSource} from '../../sources/types.js'
import {ManifestErrors} from './manifest-errors.js'
import {createFileSource} from '../../sources/file-source.js'
import {createHttpSource} from '../../sources/http-source.js'
import {IssueLog} from '../../sources/issue-log.js'
import {PodConfig} from '../../sources/pod-config.js'
import {Pleg} from '../../pleg/relist.js'
import {SyncLoop} from '../../loop/sync-loop.js'
import {readNodeInfo} from '../../host/node-info.js'
import {DEFAULT_LOG_ROTATION} from '../../apply/log-rotation.js'
import {DEFAULT_MAX_PODS} from '../../node/config.js'
import {StatusStore, readAllStatusRecords} from '../../store/status-store.js'
import {restoreInstanceStart} from '../seed-back-off.js'
import {currentWriter} from '../../node/process-identity.js'
import type {WatchOptions} from './options.js'

/** What runs while watch converges the node; stop() ends it and flushes its records. */
export interface Converging {
  readonly sources: readonly ManifestSource[]
  readonly podConfig: PodConfig
  readonly pleg: Pleg
  readonly loop: SyncLoop
  /** Stops the sources, the PLEG and the loop, then writes what the stores still hold. */
  stop(): Promise<void>
}

/** The manifest directory (if any) and every URL, as sources. */
function createSources(node: KubeNode, opts: WatchOptions): ManifestSource[] {
  const {logger, clock} = node
  const {nodeName, validate} = node.config
  return [
    ...(opts.manifestDir ? [createFileSource({path: opts.manifestDir, nodeName, validate, checkFrequencyMs: opts.fileCheckFrequencyMs, logger, clock, fs: node.fs})] : []),
    ...opts.manifestUrls.map((url) => createHttpSource({url, headers: opts.manifestUrlHeaders, nodeName, validate, checkFrequencyMs: opts.httpCheckFrequencyMs, logger})),
  ]
}

function createLoop(node: KubeNode, opts: WatchOptions, podConfig: PodConfig, statusRecorder: StatusStore): SyncLoop {
  const {logger, clock} = node
  return new SyncLoop(
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
}

export async function startConverging(node: KubeNode, opts: WatchOptions): Promise<Converging> {
  const {logger, clock} = node
  // The pods' instances keep the starts the process before this one recorded (a restart of
  // watch gives no new active deadline window).
  for (const record of await readAllStatusRecords(node.fs, node.config.rootDir).catch(() => [])) restoreInstanceStart(node, record)
  const sources = createSources(node, opts)
  const podConfig = new PodConfig(sources.map((s) => s.name), node.config.maxPods ?? DEFAULT_MAX_PODS)
  const capacityLog = new IssueLog('all sources', logger, 'pods not added')
  const statusRecorder = new StatusStore({fs: node.fs, rootDir: node.config.rootDir, clock, logger, podDirs: node.podDirs}, currentWriter('watch'))
  const manifestErrors = new ManifestErrors({rootDir: node.config.rootDir, events: node.events, clock, logger, writer: currentWriter('watch')})
  opts.metrics.countStoreWrites(() => ({status: statusRecorder.writeCount(), events: node.events.writeCount()}))
  const pleg = new Pleg(node.cache, clock, logger, {periodMs: 1000, unhealthyThresholdMs: 3 * 60_000}, opts.metrics.pleg)
  const loop = createLoop(node, opts, podConfig, statusRecorder)
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

  const stop = async (): Promise<void> => {
    await Promise.all(sources.map((s) => s.stop()))
    await pleg.stop()
    await loop.stop(5_000)
    await Promise.all([statusRecorder.flush(), node.events.flush(), manifestErrors.flush()])
  }
  return {sources, podConfig, pleg, loop, stop}
}
