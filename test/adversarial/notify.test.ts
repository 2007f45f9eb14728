// systemd notification under a hostile or broken environment: NOTIFY_SOCKET at nothing or at a
// regular file, values that would inject assignments, WATCHDOG_USEC of every wrong shape. `watch`
// keeps running, never spins (the watchdog timer stays sane, and a helper slower than the pings
// never grows a queue), and says what failed once rather than at every ping.
import {chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {MAX_WATCHDOG_MS, MIN_WATCHDOG_MS} from '../../src/decide/ready-notification.js'
import {ReadyNotifier} from '../../src/loop/ready-notifier.js'
import {notifyLine, notifySettings, systemdNotifyPort} from '../../src/node/systemd-notify.js'
import {realClock} from '../../src/util/clock.js'
import {captureLogger} from '../unit/sources/helpers.js'

let dir: string
const savedSocket = process.env['NOTIFY_SOCKET']
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'kn-adv-notify-'))))
afterEach(() => {
  rmSync(dir, {recursive: true, force: true})
  if (savedSocket === undefined) delete process.env['NOTIFY_SOCKET']
  else process.env['NOTIFY_SOCKET'] = savedSocket
})

const haveSystemdNotify = (() => {
  try {
    return readFileSync('/usr/bin/systemd-notify').length > 0
  } catch {
    return false
  }
})()

describe('WATCHDOG_USEC of every wrong shape', () => {
  it.each([
    ['0', undefined],
    ['-1', undefined],
    ['-5000000', undefined],
    ['soon', undefined],
    ['1e6', 500],
    ['0x10', 'bounded'],
    ['1', MIN_WATCHDOG_MS],
    ['999', MIN_WATCHDOG_MS],
    ['9007199254740991', MAX_WATCHDOG_MS],
    ['99999999999999999999999', undefined],
    ['30000000', 15_000],
  ] as const)('WATCHDOG_USEC=%j → %s', (usec, want) => {
    const s = notifySettings({NOTIFY_SOCKET: '/run/nothing', WATCHDOG_USEC: usec}, 42, 'all')
    expect(s).toBeDefined()
    if (want === 'bounded') {
      // Whatever Number() makes of it, the interval is one a timer can hold and is not a spin.
      if (s!.watchdogMs !== undefined) {
        expect(s!.watchdogMs).toBeGreaterThanOrEqual(MIN_WATCHDOG_MS)
        expect(s!.watchdogMs).toBeLessThanOrEqual(MAX_WATCHDOG_MS)
      }
    } else expect(s!.watchdogMs).toBe(want)
  })

  it('a huge WATCHDOG_USEC does not become a timer that fires every millisecond', async () => {
    // A timer beyond 2^31-1 ms is set to 1 ms by Node: this counts what the notifier would send.
    const s = notifySettings({NOTIFY_SOCKET: '/run/nothing', WATCHDOG_USEC: '9007199254740991'}, 42, 'all')!
    let pings = 0
    const {logger} = captureLogger()
    const n = new ReadyNotifier({port: {send: async (l) => void (l[0] === 'WATCHDOG=1' && pings++)}, mode: 'all', clock: realClock, logger, watchdogMs: s.watchdogMs})
    n.start({firstSyncDone: () => true, pods: () => [], healthy: () => true})
    await new Promise((r) => setTimeout(r, 500))
    await n.stop()
    // The first ping goes at once; none after it within half a second.
    expect(pings).toBe(1)
  })
})

describe('values that become notify lines', () => {
  it.each([
    ['STATUS=ok\nREADY=1', 'STATUS=ok READY=1'],
    ['STATUS=a\r\nMAINPID=1', 'STATUS=a  MAINPID=1'],
    ['STATUS=x\u0000y', 'STATUS=x y'],
    ['STATUS=\u001b[2Jwiped', 'STATUS= [2Jwiped'],
    ['STATUS=a\u2028b', 'STATUS=a b'],
  ])('%j is sent as one assignment: %j', (line, want) => {
    expect(notifyLine(line)).toBe(want)
  })

  it('a line that is no KEY=value (an option of systemd-notify, say) is not sent', () => {
    expect(notifyLine('--ready')).toBeUndefined()
    expect(notifyLine('-h')).toBeUndefined()
    expect(notifyLine('STATUS')).toBeUndefined()
  })

  it('a huge value is cut short', () => {
    expect(notifyLine(`STATUS=${'x'.repeat(1_000_000)}`)!.length).toBeLessThanOrEqual(1024)
  })

  it('the helper receives one argument per assignment, none with a line break', async () => {
    const out = join(dir, 'out')
    const helper = join(dir, 'systemd-notify')
    writeFileSync(helper, `#!/bin/sh\nfor a in "$@"; do printf '[%s]' "$a" >> ${out}; done\nprintf '\\n' >> ${out}\n`)
    chmodSync(helper, 0o755)
    const port = systemdNotifyPort(captureLogger().logger, helper)
    await port.send(['STATUS=1/1 pods ready\nREADY=1', '--booted', 'WATCHDOG=1'])
    expect(readFileSync(out, 'utf8')).toBe('[STATUS=1/1 pods ready READY=1][WATCHDOG=1]\n')
  })
})

describe('a NOTIFY_SOCKET that leads nowhere', () => {
  it.runIf(haveSystemdNotify).each([
    ['a path that does not exist', (d: string) => join(d, 'absent.sock')],
    ['a regular file', (d: string) => (writeFileSync(join(d, 'file'), 'x'), join(d, 'file'))],
    ['an abstract name nobody listens on', () => '@kn-adv-nobody-listens'],
    ['garbage', () => 'not a socket at all\n'],
  ])('%s: each send resolves, the failure is warned about once', async (_name, socketOf) => {
    process.env['NOTIFY_SOCKET'] = socketOf(dir)
    const {logger, lines} = captureLogger()
    const port = systemdNotifyPort(logger)
    const started = performance.now()
    for (let i = 0; i < 3; i++) await port.send(['WATCHDOG=1'])
    await port.send(['STATUS=1/1 pods ready', 'READY=1'])
    expect(performance.now() - started).toBeLessThan(30_000)
    const failures = lines.filter((l) => /Could not notify systemd/.test(l))
    // One warning; the failures after it at debug level only (a watchdog pings every few seconds).
    expect(failures).toHaveLength(4)
    expect(failures.filter((l) => l.startsWith('W')), failures.join('\n')).toHaveLength(1)
  })

  it('pings far faster than the helper delivers them never queue more than one', async () => {
    const out = join(dir, 'out')
    const helper = join(dir, 'systemd-notify')
    // A helper that takes 200 ms per message.
    writeFileSync(helper, `#!/bin/sh\nsleep 0.2\nprintf '%s\\n' "$*" >> ${out}\n`)
    chmodSync(helper, 0o755)
    const port = systemdNotifyPort(captureLogger().logger, helper)
    const sends: Promise<void>[] = []
    for (let i = 0; i < 1000; i++) sends.push(port.send(['WATCHDOG=1']))
    await Promise.all(sends)
    // At most one waits its turn behind the one being sent: 1000 pings are 1 or 2 processes, not 1000.
    expect(readFileSync(out, 'utf8').trim().split('\n').length).toBeLessThanOrEqual(2)
  })
})
