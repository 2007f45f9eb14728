// Event names stay the same for an event's whole life: once a pod holds its 100 events and the
// oldest give way to new ones, `events --watch` (the shipped bin/run.js) prints each new event
// once, and `events -o json` names every event it still lists as before. The events are written
// by the real event store into a private root dir; no runtime is needed to read them.
import {spawn} from 'node:child_process'
import {afterAll, describe, expect, it} from 'vitest'
import type {EventObject} from '../../src/api/events.js'
import {nodeHostFs} from '../../src/host/node-host-fs.js'
import {EventStore, MAX_EVENTS_PER_POD} from '../../src/store/event-store.js'
import {realClock} from '../../src/util/clock.js'
import {silentLogger} from '../../src/util/logger.js'
import {eventually, kn, knArgs, makeDirs, NODE} from './support.js'

const dirs = makeDirs()
const POD: EventObject = {uid: 'event-names-uid', name: `web-${NODE}`, namespace: 'default'}
const store = new EventStore({fs: nodeHostFs, rootDir: dirs.rootDir, clock: realClock, logger: silentLogger})
const step = async (from: number, to: number): Promise<void> => {
  for (let i = from; i < to; i++) store.emit(POD, 'Normal', 'Step', `step ${i} done`)
  await store.flush()
}
const names = async (): Promise<Map<string, string>> => {
  const r = await kn(dirs, ['events', '-o', 'json'])
  const list = JSON.parse(r.stdout) as {items: Array<{metadata: {name: string}; message: string}>}
  return new Map(list.items.filter((e) => e.message.startsWith('step ')).map((e) => [e.message, e.metadata.name]))
}

afterAll(() => dirs.cleanup())

describe('event names at the per-pod cap', () => {
  it('events --watch prints each new event once, and the kept events keep their names', async () => {
    await step(0, MAX_EVENTS_PER_POD)
    const before = await names()
    expect(before.size).toBe(MAX_EVENTS_PER_POD)

    const watcher = spawn(process.execPath, knArgs(dirs, ['events', '--watch']), {env: {...process.env, NO_COLOR: '1'}})
    let out = ''
    watcher.stdout.on('data', (d: Buffer) => (out += d.toString()))
    try {
      await eventually(() => (out.includes(`step ${MAX_EVENTS_PER_POD - 1} done`) ? true : undefined), 15_000, 'the first listing')
      const listed = out.length
      // Three more: the three oldest give way; then one more, after at least one poll of the watch.
      await step(MAX_EVENTS_PER_POD, MAX_EVENTS_PER_POD + 3)
      await new Promise((r) => setTimeout(r, 2500))
      await step(MAX_EVENTS_PER_POD + 3, MAX_EVENTS_PER_POD + 4)
      await eventually(() => (out.includes(`step ${MAX_EVENTS_PER_POD + 3} done`) ? true : undefined), 15_000, 'the last new event')
      await new Promise((r) => setTimeout(r, 1500))
      const printed = out.slice(listed).split('\n').filter((l) => l.includes('step ')).map((l) => /step \d+/.exec(l)![0])
      expect(printed).toEqual([100, 101, 102, 103].map((n) => `step ${n}`))
    } finally {
      watcher.kill('SIGINT')
    }

    const after = await names()
    expect(after.size).toBe(MAX_EVENTS_PER_POD)
    for (const [message, name] of after) if (before.has(message)) expect(name, message).toBe(before.get(message))
    expect(new Set(after.values()).size).toBe(MAX_EVENTS_PER_POD)
  })
})
