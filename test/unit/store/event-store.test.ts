// Events as the kubelet's recorder keeps them: repeats coalesce into a count, each pod's list is
// bounded, another process's events are kept, and a removed pod's events are never written again.
import {describe, expect, it} from 'vitest'
import {addEvent, EventStore, MAX_EVENT_MESSAGE, MAX_EVENTS_PER_POD, MAX_EVENTS_TOTAL, readAllPodEvents, readPodEvents} from '../../../src/store/event-store.js'
import {podDataDir} from '../../../src/kuberuntime/naming.js'
import {silentLogger} from '../../../src/util/logger.js'
import {FakeClock} from '../../support/fake-clock.js'
import {FakeHostFs} from '../../support/fake-host-fs.js'
import {UID} from '../../support/pods.js'

const ROOT = '/var/lib/kube-node'
const POD = {uid: UID, name: 'web-node1', namespace: 'default'}
const WEB = {...POD, fieldPath: 'spec.containers{web}'}
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
}

describe('addEvent', () => {
  const base = {type: 'Warning' as const, reason: 'BackOff', message: 'Back-off restarting failed container web'}
  it.each<[string, Parameters<typeof addEvent>[1], number, number]>([
    ['the same event again counts up', base, 1, 2],
    ['another message is another event', {...base, message: 'other'}, 2, 1],
    ['another container is another event', {...base, fieldPath: 'spec.containers{log}'}, 2, 1],
  ])('%s', (_name, second, events, count) => {
    const after = addEvent(addEvent([], base, 1000), second, 2000)
    expect(after).toHaveLength(events)
    expect(after[0]).toMatchObject({count, firstTimestamp: 1000, lastTimestamp: count === 2 ? 2000 : 1000})
  })

  it(`keeps at most ${MAX_EVENTS_PER_POD} events, dropping the least recent`, () => {
    let list = addEvent([], {type: 'Normal', reason: 'Old', message: 'first'}, 0)
    for (let i = 1; i <= MAX_EVENTS_PER_POD; i++) list = addEvent(list, {type: 'Normal', reason: 'Pulled', message: `image ${i}`}, i)
    expect(list).toHaveLength(MAX_EVENTS_PER_POD)
    expect(list.some((e) => e.reason === 'Old')).toBe(false)
  })
})

describe('EventStore', () => {
  it('writes a pod events file, coalesced and bounded, and keeps what another process wrote', async () => {
    const fs = new FakeHostFs()
    const clock = new FakeClock()
    const first = new EventStore({fs, rootDir: ROOT, clock, logger: silentLogger})
    first.emit(WEB, 'Normal', 'Pulling', 'Pulling image "nginx"')
    await first.flush()
    const second = new EventStore({fs, rootDir: ROOT, clock, logger: silentLogger})
    second.emit(WEB, 'Warning', 'BackOff', 'x'.repeat(5000))
    second.emit(WEB, 'Warning', 'BackOff', 'x'.repeat(5000))
    await settle()
    await second.flush()
    const doc = await readPodEvents(fs, ROOT, UID)
    expect(doc?.events.map((e) => [e.reason, e.count, e.fieldPath])).toEqual([
      ['Pulling', 1, 'spec.containers{web}'],
      ['BackOff', 2, 'spec.containers{web}'],
    ])
    expect(doc?.events[1]?.message.length).toBe(MAX_EVENT_MESSAGE + 1)
    expect(fs.dirs.get(podDataDir(ROOT, UID))).toBe(0o750)
  })

  it('a forgotten pod gets no more writes (its directory stays gone)', async () => {
    const fs = new FakeHostFs()
    const store = new EventStore({fs, rootDir: ROOT, clock: new FakeClock(), logger: silentLogger})
    store.emit(POD, 'Normal', 'Killing', 'Stopping container web')
    await store.forget(UID)
    await fs.removeAll(podDataDir(ROOT, UID))
    await settle()
    await store.flush()
    expect(fs.dirs.has(podDataDir(ROOT, UID))).toBe(false)
  })

  it(`keeps at most ${MAX_EVENTS_TOTAL} events over all pods`, async () => {
    const fs = new FakeHostFs()
    const clock = new FakeClock()
    const store = new EventStore({fs, rootDir: ROOT, clock, logger: silentLogger})
    const pods = MAX_EVENTS_TOTAL / MAX_EVENTS_PER_POD + 10
    for (let p = 0; p < pods; p++) {
      for (let i = 0; i < MAX_EVENTS_PER_POD; i++) store.emit({uid: `uid-${p}`, name: `p${p}-node1`, namespace: 'default'}, 'Normal', 'Pulled', `image ${i}`)
      clock.advance(1)
    }
    await settle()
    await store.flush()
    const total = (await readAllPodEvents(fs, ROOT)).reduce((n, d) => n + d.events.length, 0)
    expect(total).toBeLessThanOrEqual(MAX_EVENTS_TOTAL)
    expect(total).toBeGreaterThan(MAX_EVENTS_TOTAL - MAX_EVENTS_PER_POD)
  })
})
