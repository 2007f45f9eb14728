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

/** What `watch` needs to talk to the service manager, from its environment; undefined when not run by one. */
export interface NotifySettings {
  mode: NotifyReadyMode
  watchdogMs: number | undefined
}

export function notifySettings(env: NodeJS.ProcessEnv, pid: number, mode: NotifyReadyMode): NotifySettings | undefined {
  if (!env['NOTIFY_SOCKET']) return undefined
  return {mode, watchdogMs: watchdogIntervalMs({WATCHDOG_USEC: env['WATCHDOG_USEC'], WATCHDOG_PID: env['WATCHDOG_PID']}, pid)}
}

/** A message not delivered within this time is given up (the helper is killed). */
const SEND_TIMEOUT_MS = 10_000

export function systemdNotifyPort(logger: Logger, binary = 'systemd-notify'): NotifyPort {
  let chain: Promise<void> = Promise.resolve()
  let missing = false
  const sendOne = (lines: readonly string[]): Promise<void> =>
    new Promise((resolve) => {
      if (missing) return resolve()
      const child = spawn(binary, [...lines], {stdio: ['ignore', 'ignore', 'pipe']})
      let stderr = ''
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
      const timer = setTimeout(() => child.kill('SIGKILL'), SEND_TIMEOUT_MS)
      child.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer)
        if (err.code === 'ENOENT') {
          missing = true
          logger.warn(`NOTIFY_SOCKET is set but ${binary} is not installed (Debian: the systemd package); systemd will not hear from kube-node`)
        } else logger.warn('Could not notify systemd', {message: lines.join(' '), err: err.message})
        resolve()
      })
      child.on('close', (code) => {
        clearTimeout(timer)
        if (code !== 0) logger.warn('Could not notify systemd', {message: lines.join(' '), exitCode: code ?? undefined, err: stderr.trim() || undefined})
        else logger.debug(3, 'Notified systemd', {message: lines.join(' ')})
        resolve()
      })
    })
  return {
    send(lines) {
      chain = chain.then(() => sendOne(lines))
      return chain
    },
  }
}
