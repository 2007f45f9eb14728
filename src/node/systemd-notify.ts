// The sd_notify sender for `watch`: Node 20's dgram has no unix datagram sockets and kube-node
// ships no native addon, so each message goes through systemd's own `systemd-notify` binary.
// It reads NOTIFY_SOCKET (abstract `@…` names included) from the environment it inherits, and,
// run by root, sends with kube-node's PID as the sender (systemd-notify(1)), so the message is
// ours even under NotifyAccess=main and is attributed after systemd-notify has exited. Messages
// are sent one at a time, in order.
import {spawn} from 'node:child_process'
import type {Logger} from '../util/logger.js'
import type {NotifyPort} from '../loop/ready-notifier.js'
import {watchdogIntervalMs, type NotifyReadyMode} from '../decide/ready-notification.js'

/** The flag `--notify-ready-timeout` takes the limit from here (commands reach decide/ through node/). */
export {READY_WAIT_LIMIT_MS} from '../decide/ready-notification.js'

/** What `watch` needs to talk to the service manager, from its environment; undefined when not run by one. */
export interface NotifySettings {
  mode: NotifyReadyMode
  watchdogMs: number | undefined
  /** READY=1 at the latest this long after the start (`--notify-ready-timeout`). */
  readyLimitMs?: number | undefined
}

export function notifySettings(env: NodeJS.ProcessEnv, pid: number, mode: NotifyReadyMode, readyLimitMs?: number): NotifySettings | undefined {
  if (!env['NOTIFY_SOCKET']) return undefined
  return {mode, watchdogMs: watchdogIntervalMs({WATCHDOG_USEC: env['WATCHDOG_USEC'], WATCHDOG_PID: env['WATCHDOG_PID']}, pid), readyLimitMs}
}

/** A message not delivered within this time is given up (the helper is killed). */
const SEND_TIMEOUT_MS = 10_000

/**
 * One `KEY=value` assignment as an argument: a line break (or any control character) would start
 * another assignment in the datagram, a leading `-` would be an option of systemd-notify, and a
 * long value is cut short. Whatever the values ever come to hold, nothing is injected.
 */
export function notifyLine(line: string): string | undefined {
  if (!/^[A-Z_]+=/.test(line)) return undefined
  const clean = line.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
  return clean.length > 1024 ? clean.slice(0, 1024) : clean
}

export function systemdNotifyPort(logger: Logger, binary = 'systemd-notify'): NotifyPort {
  let chain: Promise<void> = Promise.resolve()
  let missing = false
  // A socket that is gone (or no socket) fails every message: say so once, until one gets through.
  let failing = false
  const failed = (fields: Record<string, unknown>): void => {
    if (failing) logger.debug(3, 'Could not notify systemd', fields)
    else logger.warn('Could not notify systemd (further failures are logged at debug level until a message gets through)', fields)
    failing = true
  }
  const sendOne = (raw: readonly string[]): Promise<void> =>
    new Promise((resolve) => {
      const lines = raw.map(notifyLine).filter((l): l is string => l !== undefined)
      if (missing || lines.length === 0) return resolve()
      const child = spawn(binary, [...lines], {stdio: ['ignore', 'ignore', 'pipe']})
      let stderr = ''
      child.stderr.on('data', (d: Buffer) => {
        if (stderr.length < 4096) stderr += d.toString()
      })
      const timer = setTimeout(() => child.kill('SIGKILL'), SEND_TIMEOUT_MS)
      child.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer)
        if (err.code === 'ENOENT') {
          missing = true
          logger.warn(`NOTIFY_SOCKET is set but ${binary} is not installed (Debian: the systemd package); systemd will not hear from kube-node`)
        } else failed({message: lines.join(' '), err: err.message})
        resolve()
      })
      child.on('close', (code) => {
        clearTimeout(timer)
        if (code !== 0) failed({message: lines.join(' '), exitCode: code ?? undefined, err: stderr.trim().slice(0, 500) || undefined})
        else {
          failing = false
          logger.debug(3, 'Notified systemd', {message: lines.join(' ')})
        }
        resolve()
      })
    })
  // At most one WATCHDOG=1 waits its turn: pings come faster than a slow helper delivers them
  // must not grow the queue (and the processes to spawn) without bound.
  let watchdogQueued: Promise<void> | undefined
  return {
    send(lines) {
      const watchdog = lines.length === 1 && lines[0] === 'WATCHDOG=1'
      if (watchdog && watchdogQueued) return watchdogQueued
      chain = chain.then(() => {
        if (watchdog) watchdogQueued = undefined
        return sendOne(lines)
      })
      if (watchdog) watchdogQueued = chain
      return chain
    },
  }
}
