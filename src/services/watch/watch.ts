// `watch`: the daemon. Sources feed the pod-config merge, whose operations, with PLEG events and
// the loop's own ticks, drive the pod workers (converge.ts); a small HTTP server exposes health,
// pods, metrics and the read-only API (serve.ts). Stops cleanly on the abort signal and leaves
// the pods running.
import type {KubeNode} from '../../node/create-node.js'
import {acquireLock} from '../../node/lock.js'
import {ReadyNotifier} from '../../loop/ready-notifier.js'
import {systemdNotifyPort} from '../../node/systemd-notify.js'
import {startConverging, type Converging} from './converge.js'
import {startServing} from './serve.js'
import type {WatchOptions} from './options.js'

/** READY=1, STATUS= and the watchdog for a service manager, when one started watch. */
function startNotifier(node: KubeNode, opts: WatchOptions, {podConfig, loop, pleg}: Converging, startedAt: number): ReadyNotifier | undefined {
  const {logger, clock} = node
  const notifier =
    opts.notify &&
    new ReadyNotifier({port: opts.notify.port ?? systemdNotifyPort(logger), mode: opts.notify.mode, watchdogMs: opts.notify.watchdogMs, readyLimitMs: opts.notify.readyLimitMs, startedAt, clock, logger})
  notifier?.start({
    firstSyncDone: () => podConfig.allSourcesReady() && loop.statuses().every((p) => p.status !== undefined),
    pods: () => loop.statuses().map((p) => p.status),
    healthy: () => pleg.healthy(clock.now()).ok && loop.healthy(clock.now()).ok,
  })
  return notifier
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve()
    signal.addEventListener('abort', () => resolve(), {once: true})
  })
}

export async function watchPods(node: KubeNode, opts: WatchOptions): Promise<void> {
  const {logger, clock} = node
  // systemd's start timeout runs from here on: so does the wait for READY=1.
  const startedAt = clock.now()
  const lock = await acquireLock(node.config.rootDir)
  try {
    const converging = await startConverging(node, opts)
    const serving = await startServing(node, opts, converging)
    logger.info('kube-node is watching', {
      sources: converging.sources.map((s) => s.name).join(','),
      port: serving.port || undefined,
      apiTlsPort: serving.apiTlsPort,
      healthzPort: serving.healthzPort || undefined,
      node: node.config.nodeName,
    })
    opts.onReady?.({port: serving.port, healthzPort: serving.healthzPort})
    const notifier = startNotifier(node, opts, converging, startedAt)

    await aborted(opts.signal)
    logger.info('Stopping: pods keep running')
    await notifier?.stop()
    await converging.stop()
    await serving.close()
  } finally {
    await lock.release()
  }
}
