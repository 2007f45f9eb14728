// Container log rotation, as the kubelet's container log manager does it: when a running
// container's log passes maxSize, rename it to `<log>.<YYYYMMDD-HHMMSS>`, ask the runtime to
// reopen the log (CRI ReopenContainerLog), and keep at most maxFiles files in all.
import {basename, dirname, join} from 'node:path'
import type {RuntimeService} from '../cri/port.js'
import type {HostFs} from '../host/port.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {Logger} from '../util/logger.js'
import {errorMessage} from '../util/errors.js'
import {isPlainlyInside} from '../util/contained-path.js'

export interface LogRotationOptions {
  maxSizeBytes: number
  maxFiles: number
}

export const DEFAULT_LOG_ROTATION: LogRotationOptions = {maxSizeBytes: 10 * 1024 * 1024, maxFiles: 5}

function stamp(now: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0')
  return `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}-${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`
}

/** Rotated siblings of `path`, oldest first (the timestamp suffix sorts by time). */
async function rotatedFiles(fs: HostFs, path: string): Promise<string[]> {
  const prefix = `${basename(path)}.`
  const names = await fs.list(dirname(path))
  return names.filter((n) => n.startsWith(prefix)).sort().map((n) => join(dirname(path), n))
}

export async function rotateLogs(
  deps: {runtime: RuntimeService; fs: HostFs},
  pods: readonly RuntimePod[],
  opts: LogRotationOptions & {podLogsDir: string},
  now: Date,
  logger: Logger,
): Promise<void> {
  for (const pod of pods) {
    for (const c of pod.containers) {
      if (c.state !== 'running' || !c.logPath) continue
      // The runtime reports the path; only files under --pod-logs-dir are ever renamed or deleted.
      if (!isPlainlyInside(opts.podLogsDir, c.logPath)) {
        logger.warn('Not rotating a container log outside --pod-logs-dir', {pod: pod.name, container: c.name, path: c.logPath})
        continue
      }
      try {
        const st = await deps.fs.stat(c.logPath)
        if (st?.type !== 'file') continue
        const size = st.size
        if (size < opts.maxSizeBytes) continue
        await deps.fs.rename(c.logPath, `${c.logPath}.${stamp(now)}`)
        await deps.runtime.reopenContainerLog(c.id)
        const rotated = await rotatedFiles(deps.fs, c.logPath)
        for (const old of rotated.slice(0, Math.max(0, rotated.length - (opts.maxFiles - 1)))) await deps.fs.unlink(old)
        logger.debug(2, 'Rotated container log', {pod: pod.name, container: c.name, bytes: size})
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue
        logger.warn('Could not rotate container log', {pod: pod.name, container: c.name, err: errorMessage(err)})
      }
    }
  }
}
