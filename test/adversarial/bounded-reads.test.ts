// Files named by a user (manifests, config and header files) and kube-node's own records are read
// through host/read-bounded.ts: whatever sits at the path (a device that never ends, a FIFO, a
// link, a file far past its limit), the read stays within the limit and never hangs.
import {execFileSync} from 'node:child_process'
import {mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {readBounded, readBoundedBytes, readBoundedSync} from '../../src/host/read-bounded.js'
import {TooLargeError} from '../../src/util/errors.js'

const dir = mkdtempSync(join(tmpdir(), 'kn-bounded-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

describe('bounded reads', () => {
  it('a device that never ends (/dev/zero) stops at the limit with TooLargeError', async () => {
    await expect(readBoundedBytes('/dev/zero', 1024 * 1024)).rejects.toBeInstanceOf(TooLargeError)
  })

  it('a file one byte past the limit is refused; one at the limit is read whole', async () => {
    const over = join(dir, 'over.yaml')
    writeFileSync(over, 'x'.repeat(4097))
    await expect(readBounded(over, 4096)).rejects.toBeInstanceOf(TooLargeError)
    expect(() => readBoundedSync(over, 4096)).toThrow(TooLargeError)
    const exact = join(dir, 'exact.yaml')
    writeFileSync(exact, 'y'.repeat(4096))
    expect(await readBounded(exact, 4096)).toHaveLength(4096)
    expect(readBoundedSync(exact, 4096)).toHaveLength(4096)
  })

  it('the synchronous read neither waits on a FIFO without a writer nor follows a link when told not to', () => {
    const fifo = join(dir, 'fifo')
    execFileSync('mkfifo', [fifo])
    expect(() => readBoundedSync(fifo, 1024)).toThrow(/not a regular file/)
    const target = join(dir, 'secret')
    writeFileSync(target, 'token')
    const link = join(dir, 'record.json')
    symlinkSync(target, link)
    expect(() => readBoundedSync(link, 1024, {follow: false})).toThrow(/ELOOP/)
  })
})
