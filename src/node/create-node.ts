// The composition root: createNode(config) wires the real runtime client, the instrumentation,
// the host's DNS settings, the one runtime cache and the sync context. Commands call this and
// nothing deeper. Everything it builds is frozen: what a run brings is an argument of the run.
import type {DNSConfig} from '../cri/api.js'
import type {ImageService, Runtime, RuntimeService} from '../cri/port.js'
import type {NodeConfig} from './config.js'
import type {Logger} from '../util/logger.js'
import {realClock, type Clock} from '../util/clock.js'
import {createGrpcRuntime} from '../cri/grpc/client.js'
import {instrumentRuntime, type CriMetrics} from '../cri/instrumented.js'
import {RuntimeCache} from '../pleg/runtime-cache.js'
import {EventStore} from '../store/event-store.js'
import {PodDirs} from '../store/pod-dir.js'
import {parseResolvConf} from '../kuberuntime/dns.js'
import {terminationMessageReader} from '../kuberuntime/termination-message.js'
import {readBoundedSync} from '../host/read-bounded.js'
import {BackOff, INITIAL_BACKOFF_MS, MAX_BACKOFF_MS} from '../loop/backoff.js'
import {InstanceStarts} from '../loop/instance-starts.js'
import {type HostFs} from '../host/port.js'
import {nodeHostFs} from '../host/node-host-fs.js'
import {createDiskUsageMeter} from '../host/disk-usage.js'
import {podRecorder} from './pod-store.js'
import type {SyncContext} from '../loop/sync-pod.js'
import {ProbeManager} from '../prober/manager.js'
import type {ProbeMetrics} from '../prober/metrics.js'
import type {SyncMetrics} from '../apply/sync-metrics.js'
import {nodeCpuMilli, primaryHostIP} from '../host/node-info.js'
import os from 'node:os'
import {serialQueue} from '../util/serial-queue.js'

import {readAppArmorHost, type AppArmorHost} from '../host/apparmor.js'
import {runtimeSupportLoader} from './runtime-support.js'

export interface KubeNode {
  readonly config: NodeConfig
  readonly runtime: RuntimeService
  readonly images: ImageService
  /** CRI calls made so far per RPC name (benchmarks). */
  callCounts(): Record<string, number>
  readonly logger: Logger
  readonly clock: Clock
  readonly fs: HostFs
  /** The one view of the runtime's pods that every reader uses. */
  readonly cache: RuntimeCache
  /** Events this process records (flushed before it ends). */
  readonly events: EventStore
  /** The pod directories this process made (the executor's and every record store's). */
  readonly podDirs: PodDirs
  readonly sync: SyncContext
  /** Where probe result changes go (watch: the sync loop); run just polls. */
  onProbeChange(handler: (uid: string) => void): void
  close(): void
}

export interface NodeOverrides {
  /** A runtime to use instead of dialling config.runtimeEndpoint (tests, benchmarks). */
  runtime?: Runtime
  clock?: Clock
  fs?: HostFs
  /** Where CRI call counts and durations go (watch's /metrics). */
  criMetrics?: CriMetrics
  /** Where sandbox, container start and pull counts go (watch's /metrics). */
  syncMetrics?: SyncMetrics
  /** Where probe runs go (watch's /metrics/probes). */
  probeMetrics?: ProbeMetrics
  /** The host's AppArmor as a test wants it (default: read from /sys). */
  appArmor?: () => Promise<AppArmorHost>
}

/** A resolv.conf is a few lines: this bounds a mistake (a device or a log given as --resolv-conf). */
const RESOLV_CONF_MAX_BYTES = 64 * 1024

function readHostDns(path: string, logger: Logger): DNSConfig {
  if (!path) return {servers: [], searches: [], options: []}
  try {
    return parseResolvConf(readBoundedSync(path, RESOLV_CONF_MAX_BYTES))
  } catch (err) {
    logger.warn('Could not read the host resolv.conf; pods using it get no DNS servers', {path, err})
    return {servers: [], searches: [], options: []}
  }
}

/**
 * Test-only: the first crash and image-pull back-off in milliseconds instead of the kubelet's 10 s,
 * so that end-to-end tests that wait out back-offs finish fast (README, Development). Unset, or
 * anything but a positive whole number, it changes nothing.
 */
const TEST_ONLY_BACKOFF_ENV = 'KUBE_NODE_TEST_ONLY_BACKOFF_MS'

function testOnlyInitialBackOffMs(): number | undefined {
  const raw = process.env[TEST_ONLY_BACKOFF_ENV]
  return raw !== undefined && /^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : undefined
}

export async function createNode(config: NodeConfig, logger: Logger, overrides: NodeOverrides = {}): Promise<KubeNode> {
  const clock = overrides.clock ?? realClock
  const fs = overrides.fs ?? nodeHostFs
  const raw =
    overrides.runtime ??
    createGrpcRuntime({
      runtimeEndpoint: config.runtimeEndpoint,
      imageEndpoint: config.imageEndpoint,
      callTimeoutMs: config.runtimeRequestTimeoutMs,
    })
  const runtime = instrumentRuntime(raw, {logger, clock, metrics: overrides.criMetrics})
  const hostDns = readHostDns(config.resolvConf, logger)
  const podDirs = new PodDirs(fs, config.rootDir)
  const events = new EventStore({fs, rootDir: config.rootDir, clock, logger, podDirs})
  let probeChanged: (uid: string) => void = () => {}
  const prober = new ProbeManager({runtime: runtime.runtime, clock, logger, onChange: (uid) => probeChanged(uid), events, metrics: overrides.probeMetrics})
  const cache = new RuntimeCache(runtime.runtime, runtime.images, clock, config.nodeName, terminationMessageReader(fs))
  // Every change goes through here, so the cache knows which pods only this process changed.
  const changing = cache.track(runtime.runtime)
  const sync: SyncContext = Object.freeze({
    clock,
    prober,
    cache,
    // A ceiling under 10s is the first delay too (kubelet crashLoopBackOff.maxContainerRestartPeriod).
    backOff: new BackOff(Math.min(testOnlyInitialBackOffMs() ?? INITIAL_BACKOFF_MS, config.maxContainerRestartPeriodMs ?? MAX_BACKOFF_MS), config.maxContainerRestartPeriodMs ?? MAX_BACKOFF_MS),
    instanceStarts: new InstanceStarts(),
    deps: Object.freeze({
      runtime: changing,
      images: runtime.images,
      fs,
      logger,
      rootDir: config.rootDir,
      podLogsDir: config.podLogsDir,
      hostDns,
      clusterDNS: config.clusterDNS,
      clusterDomain: config.clusterDomain,
      clock,
      podDirs,
      savePod: podRecorder(config.rootDir),
      events,
      hostIP: primaryHostIP(),
      nodeCapacity: {cpuMilli: nodeCpuMilli(), memoryBytes: os.totalmem()},
      serializePulls: config.serializeImagePulls === false ? undefined : serialQueue(),
      seccompDefault: config.seccompDefault ?? true,
      runtimeSupport: runtimeSupportLoader(changing, overrides.appArmor ?? (() => readAppArmorHost())),
      metrics: overrides.syncMetrics,
      diskUsage: createDiskUsageMeter(),
    }),
  })
  const node: KubeNode = {
    config,
    runtime: changing,
    images: runtime.images,
    callCounts: () => runtime.callCounts(),
    logger,
    clock,
    fs,
    cache,
    events,
    podDirs,
    sync,
    onProbeChange: (handler) => {
      probeChanged = handler
    },
    close: () => {
      prober.stop()
      raw.close()
    },
  }
  return Object.freeze(node)
}
