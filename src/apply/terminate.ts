// The terminating path (`down`, `delete pod`, a removed manifest): stop the pod gracefully,
// remove its sandboxes, then its data and log directories, so nothing is left behind. Each
// running container gets its preStop hook and grace period first (kill.ts).
import type {Pod} from '../api/types.js'
import type {RuntimeService} from '../cri/port.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {HostFs} from '../host/port.js'
import type {EventSink} from '../api/events.js'
import type {Logger} from '../util/logger.js'
import type {Clock} from '../util/clock.js'
import {podDataDir, podLogDirectory} from '../kuberuntime/naming.js'
import {cleanupVolumes} from '../volumes/prepare.js'
import {stopPodSandboxes} from './kill.js'
import {PathEscapeError} from '../util/contained-path.js'

export interface TerminateDeps {
  runtime: RuntimeService
  fs: HostFs
  logger: Logger
  rootDir: string
  podLogsDir: string
  /** Times preStop hooks; the real clock when not given. */
  clock?: Clock | undefined
  events?: EventSink | undefined
}

export async function terminatePod(
  deps: TerminateDeps,
  observed: RuntimePod,
  desired: Pod | undefined,
  opts: {gracePeriodOverride?: number; keepLogs?: boolean} = {},
): Promise<void> {
  deps.logger.debug(2, 'Killing pod', {pod: observed.name, uid: observed.uid, reason: 'pod is being removed'})
  await stopPodSandboxes(deps, desired, observed, {remove: true, gracePeriodOverride: opts.gracePeriodOverride})
  // The uid, name and namespace come from runtime labels, which anyone with access to the
  // runtime can write: a value that would lead outside the roots removes nothing.
  let dataDir: string
  let logDir: string
  try {
    dataDir = podDataDir(deps.rootDir, observed.uid)
    logDir = podLogDirectory(deps.podLogsDir, observed.namespace, observed.name, observed.uid)
  } catch (err) {
    if (!(err instanceof PathEscapeError)) throw err
    deps.logger.warn('Not removing the files of a pod whose runtime labels name a path outside kube-node\'s directories', {pod: observed.name, uid: observed.uid, err: err.message})
    return
  }
  // No event of this pod may be written once its directory is gone.
  await deps.events?.forget?.(observed.uid)
  // tmpfs volumes (memory emptyDirs, secrets) must be unmounted before the directory goes.
  await cleanupVolumes(deps, observed.uid)
  await deps.fs.removeAll(dataDir)
  if (!opts.keepLogs) await deps.fs.removeAll(logDir)
}
