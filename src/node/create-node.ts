// The composition root: createNode(config) wires the real runtime client, the instrumentation,
// the host's DNS settings and the sync context. Commands call this and nothing deeper.
import {readFile} from 'node:fs/promises'
import type {DNSConfig} from '../cri/api.js'
import type {Runtime} from '../cri/port.js'
import type {NodeConfig} from './config.js'
import type {Logger} from '../util/logger.js'
import {realClock, type Clock} from '../util/clock.js'
import {createGrpcRuntime} from '../cri/grpc/client.js'
import {instrumentRuntime, type CriMetrics} from '../cri/instrumented.js'
import {parseResolvConf} from '../kuberuntime/dns.js'
import {BackOff} from '../loop/backoff.js'
import {nodeHostFs, type HostFs} from '../apply/host-fs.js'
import {podRecorder} from './pod-store.js'
import type {SyncContext} from '../loop/sync-pod.js'
import {ProbeManager} from '../prober/manager.js'
import {EMPTY_OBJECT_STORE} from '../manifest/object-store.js'
import {nodeCpuMilli, primaryHostIP} from '../util/node-info.js'
import os from 'node:os'
import {serialQueue} from '../util/serial-queue.js'

export interface KubeNode {
  config: NodeConfig
  runtime: Runtime
  logger: Logger
  clock: Clock
  fs: HostFs
  sync: SyncContext
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
}

async function readHostDns(path: string, logger: Logger): Promise<DNSConfig> {
  if (!path) return {servers: [], searches: [], options: []}
  try {
    return parseResolvConf(await readFile(path, 'utf8'))
  } catch (err) {
    logger.warn('Could not read the host resolv.conf; pods using it get no DNS servers', {path, err})
    return {servers: [], searches: [], options: []}
  }
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
  const runtime = instrumentRuntime(raw, {logger, clock, ...(overrides.criMetrics ? {metrics: overrides.criMetrics} : {})})
  const hostDns = await readHostDns(config.resolvConf, logger)
  let probeChanged: (uid: string) => void = () => {}
  const prober = new ProbeManager({runtime: runtime.runtime, clock, logger, onChange: (uid) => probeChanged(uid)})
  const sync: SyncContext = {
    clock,
    prober,
    backOff: new BackOff(),
    deps: {
      runtime,
      fs,
      logger,
      rootDir: config.rootDir,
      podLogsDir: config.podLogsDir,
      hostDns,
      clusterDNS: config.clusterDNS,
      clusterDomain: config.clusterDomain,
      objects: EMPTY_OBJECT_STORE,
      clock,
      savePod: podRecorder(config.rootDir),
      hostIP: primaryHostIP(),
      nodeCapacity: {cpuMilli: nodeCpuMilli(), memoryBytes: os.totalmem()},
      ...(config.serializeImagePulls === false ? {} : {serializePulls: serialQueue()}),
    },
  }
  return {
    config,
    runtime,
    logger,
    clock,
    fs,
    sync,
    onProbeChange: (handler) => {
      probeChanged = handler
    },
    close: () => {
      prober.stop()
      raw.close()
    },
  }
}
