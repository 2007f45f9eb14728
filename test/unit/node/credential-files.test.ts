// A file holding credentials that its group or other users can read gets one warning at start,
// naming the file and the chmod that fixes it; an owner-only file gets none.
import {describe, expect, it} from 'vitest'
import {otherReaders, warnReadableCredentialFiles} from '../../../src/node/credential-files.js'
import type {LogFields, Logger} from '../../../src/util/logger.js'
import {silentLogger} from '../../../src/util/logger.js'
import {FakeHostFs} from '../../support/fake-host-fs.js'

describe('otherReaders', () => {
  it.each<[number, string | undefined]>([
    [0o600, undefined],
    [0o400, undefined],
    [0o700, undefined],
    [0o620, undefined],
    [0o640, 'its group'],
    [0o604, 'every user'],
    [0o644, 'its group and every user'],
    [0o666, 'its group and every user'],
  ])('mode %o → %s', (mode, want) => expect(otherReaders(mode)).toBe(want))
})

describe('warnReadableCredentialFiles', () => {
  it('warns once per readable file, with the file, where it was given and the fix; not for 0600 or a missing file', async () => {
    const fs = new FakeHostFs()
    await fs.writeFile('/etc/kube-node/config.yaml', Buffer.from('x'), 0o644)
    await fs.writeFile('/etc/kube-node/headers', Buffer.from('x'), 0o600)
    const warned: [string, LogFields | undefined][] = []
    const logger: Logger = {...silentLogger, warn: (m, f) => void warned.push([m, f])}
    await warnReadableCredentialFiles(fs, logger, [
      {path: '/etc/kube-node/config.yaml', source: '--config (staticPodURLHeader)'},
      {path: '/etc/kube-node/headers', source: '--manifest-url-header-file'},
      {path: '/nonexistent', source: '--manifest-url-header-file'},
    ])
    expect(warned).toEqual([
      [
        'A file holding credentials is readable by its group and every user: make it readable by its owner only',
        {file: '/etc/kube-node/config.yaml', source: '--config (staticPodURLHeader)', mode: '0644', fix: 'chmod 600 /etc/kube-node/config.yaml'},
      ],
    ])
  })
})
