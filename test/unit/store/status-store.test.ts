// The status store over an in-memory host: written only when the status changed, at most once a
// second per pod with the last status always written, bounded, and read back only whole.
import {describe, expect, it} from 'vitest'
import type {PodStatus} from '../../../src/api/types.js'
import {MAX_MESSAGE_CHARS, readAllStatusRecords, readStatusRecord, StatusStore} from '../../../src/store/status-store.js'
import {podDataDir} from '../../../src/kuberuntime/naming.js'
import {createLogger, silentLogger} from '../../../src/util/logger.js'
import {FakeClock} from '../../support/fake-clock.js'
import {FakeHostFs} from '../../support/fake-host-fs.js'
import {makeStaticPod, UID} from '../../support/pods.js'

const ROOT = '/var/lib/kube-node'
const WRITER = {command: 'watch' as const, pid: 42, startedAt: 0, processStart: '7'}

function setup() {
  const fs = new FakeHostFs()
  const clock = new FakeClock()
  const store = new StatusStore({fs, rootDir: ROOT, clock, logger: silentLogger}, WRITER)
  const writes = (): number => fs.calls.filter((c) => c.startsWith('rename')).length
  return {fs, clock, store, writes}
}

const waiting = (reason: string, message = ''): PodStatus => ({phase: 'Pending', containerStatuses: [{name: 'app', state: {waiting: {reason, message}}, ready: false, restartCount: 0, image: 'nginx', imageID: ''}]})
const settle = (): Promise<void> => new Promise((r) => setImmediate(r))

describe('StatusStore', () => {
  it('writes a changed status at once, an unchanged one never again', async () => {
    const {fs, store, writes} = setup()
    const sp = makeStaticPod()
    store.record(sp, waiting('ErrImagePull'))
    await settle()
    store.record(sp, waiting('ErrImagePull'))
    await settle()
    expect(writes()).toBe(1)
    const rec = await readStatusRecord(fs, ROOT, UID)
    expect(rec).toMatchObject({uid: UID, name: 'web-node1', writer: WRITER, status: waiting('ErrImagePull')})
    expect(fs.dirs.get(podDataDir(ROOT, UID))).toBe(0o750)
  })

  it('a status that changes many times a second costs one write a second, and the last one is written', async () => {
    const {fs, clock, store, writes} = setup()
    const sp = makeStaticPod()
    for (let i = 0; i < 50; i++) {
      store.record(sp, waiting('CrashLoopBackOff', `restart ${i}`))
      await settle()
      clock.advance(100)
      await settle()
    }
    // 50 changes over 5 s: at most one write per second.
    expect(writes()).toBeLessThanOrEqual(6)
    await store.flush()
    expect((await readStatusRecord(fs, ROOT, UID))?.status).toEqual(waiting('CrashLoopBackOff', 'restart 49'))
  })

  it('cuts every message to a bound', async () => {
    const {fs, store} = setup()
    store.record(makeStaticPod(), waiting('Error', 'x'.repeat(100_000)))
    await store.flush()
    const message = (await readStatusRecord(fs, ROOT, UID))?.status.containerStatuses?.[0]?.state?.waiting?.message ?? ''
    expect(message.length).toBe(MAX_MESSAGE_CHARS + 1)
  })

  it('reads back only a whole record of the right pod, and lists every record', async () => {
    const {fs, store} = setup()
    store.record(makeStaticPod(), waiting('ErrImagePull'))
    await store.flush()
    expect(await readAllStatusRecords(fs, ROOT)).toHaveLength(1)
    await fs.writeFile(`${podDataDir(ROOT, UID)}/status.json`, '{"apiVersion": "kube-node.io/v1", "kind": "PodStatusRecord", "uid": "other"', 0o640)
    expect(await readStatusRecord(fs, ROOT, UID)).toBeUndefined()
  })

  it('remove() deletes the record and no pending write brings it back', async () => {
    const {fs, clock, store} = setup()
    const sp = makeStaticPod()
    store.record(sp, waiting('A'))
    await settle()
    store.record(sp, waiting('B'))
    await store.remove(UID)
    clock.advance(5000)
    await store.flush()
    expect(await readStatusRecord(fs, ROOT, UID)).toBeUndefined()
  })

  it('on a full disk: one warning per pod, tries that space out, and the last status written once the disk has room', async () => {
    class FullFs extends FakeHostFs {
      full = true
      tries = 0
      override async writeFile(path: string, data: string | Buffer, mode: number): Promise<void> {
        this.tries++
        if (!this.full) return super.writeFile(path, data, mode)
        // As the kernel does: the file is created, its content is not.
        await super.writeFile(path, '', mode)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'})
      }
    }
    const fs = new FullFs()
    const clock = new FakeClock()
    const lines: string[] = []
    const logger = createLogger({verbosity: 0, format: 'json', write: (l) => lines.push(l)})
    const store = new StatusStore({fs, rootDir: ROOT, clock, logger}, WRITER)
    const sp = makeStaticPod()
    // A daemon records the same status every second for ten minutes while the disk is full.
    for (let i = 0; i < 600; i++) {
      store.record(sp, waiting('ErrImagePull'))
      await settle()
      clock.advance(1000)
      await settle()
    }
    expect(lines.filter((l) => l.includes('Could not write'))).toHaveLength(1)
    expect(lines[0]).toContain('ENOSPC')
    // 1, 2, 4, ... 32 s, then once a minute: not one try a second.
    expect(fs.tries).toBeGreaterThan(5)
    expect(fs.tries).toBeLessThan(20)
    expect(await readStatusRecord(fs, ROOT, UID)).toBeUndefined()
    // No try leaves its temporary file behind.
    expect([...fs.files.keys()].filter((f) => f.endsWith('.tmp'))).toEqual([])
    // Room again: the status is written at the next try, though it never changed.
    fs.full = false
    clock.advance(60_000)
    await settle()
    await settle()
    expect((await readStatusRecord(fs, ROOT, UID))?.status).toEqual(waiting('ErrImagePull'))
    expect(lines.filter((l) => l.includes('works again'))).toHaveLength(1)
  })
})
