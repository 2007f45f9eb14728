// `watch` → the service manager (systemd's sd_notify protocol): STATUS= lines with the pod counts,
// READY=1 once (CLI.md `--notify-ready`; at the latest after `--notify-ready-timeout`, at most
// READY_WAIT_LIMIT_MS, so a pod that never becomes Ready cannot time out the unit's start and
// restart the daemon), WATCHDOG=1 while the sync loop is healthy, STOPPING=1 on
// a clean stop. The decision is decide/ready-notification.ts; the sending is a port, so tests fake
// it and the daemon uses systemd-notify (node/systemd-notify.ts).
import type {PodStatus} from '../api/types.js'
import type {Clock} from '../util/clock.js'
import type {Logger} from '../util/logger.js'
import {READY_WAIT_LIMIT_MS, readiness, type NotifyReadyMode} from '../decide/ready-notification.js'

/** Sends one sd_notify message (`KEY=value` lines). Never throws: a lost message is logged. */
export interface NotifyPort {
  send(lines: readonly string[]): Promise<void>
}

export interface ReadyNotifierOptions {
  port: NotifyPort
  mode: NotifyReadyMode
  clock: Clock
  logger: Logger
  /** How often to check the pods (ms). */
  checkMs?: number
  /** WATCHDOG=1 every this many ms (half of WATCHDOG_USEC); undefined: no watchdog. */
  watchdogMs?: number | undefined
  /** READY=1 at the latest this long after `startedAt`; default and most READY_WAIT_LIMIT_MS. */
  readyLimitMs?: number | undefined
  /** When the wait began (the daemon's start); default when start() is called. */
  startedAt?: number | undefined
}

export interface NodeView {
  firstSyncDone: () => boolean
  pods: () => readonly (PodStatus | undefined)[]
  /** The watchdog is fed only while this holds: a stuck sync loop lets systemd restart kube-node. */
  healthy: () => boolean
}

export class ReadyNotifier {
  private timers: (() => void)[] = []
  private lastStatus = ''
  private readySent = false

  constructor(private readonly opts: ReadyNotifierOptions) {}

  start(view: NodeView): void {
    const {clock} = this.opts
    const startedAt = this.opts.startedAt ?? clock.now()
    const limitMs = Math.min(this.opts.readyLimitMs ?? READY_WAIT_LIMIT_MS, READY_WAIT_LIMIT_MS)
    this.check(view, startedAt, limitMs)
    this.timers.push(clock.every(this.opts.checkMs ?? 1000, () => this.check(view, startedAt, limitMs)))
    // At the limit itself, not up to checkMs after it.
    this.timers.push(clock.after(Math.max(0, startedAt + limitMs - clock.now()), () => this.check(view, startedAt, limitMs)))
    const watchdogMs = this.opts.watchdogMs
    if (watchdogMs !== undefined) {
      // The first ping goes at once, so a short WatchdogSec= is met from the start.
      const ping = (): void => {
        if (view.healthy()) void this.opts.port.send(['WATCHDOG=1'])
        else this.opts.logger.warn('Not feeding the systemd watchdog: the sync loop is not healthy')
      }
      ping()
      this.timers.push(clock.every(watchdogMs, ping))
    }
  }

  /** STOPPING=1, after which nothing more is sent. */
  async stop(): Promise<void> {
    for (const cancel of this.timers) cancel()
    this.timers = []
    await this.opts.port.send(['STOPPING=1', 'STATUS=stopping; pods keep running'])
  }

  private check(view: NodeView, startedAt: number, limitMs: number): void {
    const r = readiness({mode: this.opts.mode, firstSyncDone: view.firstSyncDone(), pods: view.pods(), waitedMs: this.opts.clock.now() - startedAt, limitMs})
    const lines: string[] = []
    if (r.ready && !this.readySent) {
      this.readySent = true
      if (r.limitReached) this.opts.logger.warn('Telling systemd kube-node is ready although not every pod is at its goal; STATUS= keeps the counts', {status: r.status, reason: r.reason})
      else this.opts.logger.info('Telling systemd kube-node is ready', {status: r.status, reason: r.reason})
      lines.push('READY=1')
    }
    if (r.status !== this.lastStatus) {
      this.lastStatus = r.status
      lines.push(`STATUS=${r.status}`)
    }
    if (lines.length > 0) void this.opts.port.send(lines)
  }
}
