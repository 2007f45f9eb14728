// The sd_notify sender: one helper process per message, in order, each message's lines as its
// arguments; a missing helper is reported once and never fails `watch`.
import {chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {notifySettings, systemdNotifyPort} from '../../../src/node/systemd-notify.js'
import {captureLogger} from '../../unit/sources/helpers.js'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'kn-notify-'))))
afterEach(() => rmSync(dir, {recursive: true, force: true}))

describe('systemdNotifyPort', () => {
  it('sends each message as the helper\'s arguments, one after another', async () => {
    const out = join(dir, 'out')
    const helper = join(dir, 'systemd-notify')
    // A slow first message must not be overtaken by the next.
    writeFileSync(helper, `#!/bin/sh\n[ "$1" = READY=1 ] && sleep 0.3\nprintf '%s\\n' "$*" >> ${out}\n`)
    chmodSync(helper, 0o755)
    const port = systemdNotifyPort(captureLogger().logger, helper)
    void port.send(['READY=1', 'STATUS=1/1 pods ready'])
    await port.send(['WATCHDOG=1'])
    expect(readFileSync(out, 'utf8')).toBe('READY=1 STATUS=1/1 pods ready\nWATCHDOG=1\n')
  })

  it('warns once when the helper is missing, and sends nothing more', async () => {
    const {logger, lines} = captureLogger()
    const port = systemdNotifyPort(logger, join(dir, 'absent'))
    await port.send(['READY=1'])
    await port.send(['WATCHDOG=1'])
    expect(lines.filter((l) => l.includes('is not installed'))).toHaveLength(1)
  })

  it('is off without NOTIFY_SOCKET, and takes the watchdog from the environment', () => {
    expect(notifySettings({}, 42, 'all')).toBeUndefined()
    expect(notifySettings({NOTIFY_SOCKET: '@sd', WATCHDOG_USEC: '60000000'}, 42, 'started')).toEqual({mode: 'started', watchdogMs: 30_000})
  })
})
