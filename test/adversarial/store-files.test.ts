// The status and event files under --root-dir are read by every `get`, `describe` and `events`:
// a tampered, oversized or hostile file is ignored or printed escaped, never a crash, never a
// raw control sequence on the reader's terminal.
import {mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {execFileSync} from 'node:child_process'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {NODE, kn, makeDirs} from '../e2e/support.js'

const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/
const HOSTILE = '\x1b[2J\x1b]8;;http://evil/\x07click\u202e'

describe('hostile status and event files', () => {
  const dirs = makeDirs()
  afterAll(() => dirs.cleanup())

  const podDir = (uid: string): string => {
    const dir = join(dirs.rootDir, 'pods', uid)
    mkdirSync(dir, {recursive: true, mode: 0o750})
    return dir
  }
  const record = (uid: string, name: string, message: string): string =>
    JSON.stringify({
      apiVersion: 'kube-node.io/v1', kind: 'PodStatusRecord', uid, name, namespace: 'default', at: 1, manifestHash: '',
      writer: {command: 'watch', pid: 1, startedAt: 0, processStart: 'x'},
      status: {phase: 'Failed', reason: 'OutOfcpu', message, containerStatuses: [{name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: {waiting: {reason: HOSTILE, message}}}]},
    })

  it('a hostile record is listed with every text escaped', async () => {
    writeFileSync(join(podDir('a'.repeat(32)), 'status.json'), record('a'.repeat(32), `evil-${NODE}`, HOSTILE))
    writeFileSync(
      join(podDir('a'.repeat(32)), 'events.json'),
      JSON.stringify({apiVersion: 'kube-node.io/v1', kind: 'PodEvents', uid: 'a'.repeat(32), name: `evil-${NODE}`, namespace: 'default', events: [{type: 'Warning', reason: HOSTILE, message: HOSTILE, count: 1, firstTimestamp: 1, lastTimestamp: 1}]}),
    )
    const table = await kn(dirs, ['get', 'pods'])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain(`evil-${NODE}`)
    expect(table.stdout.replace(/\n/g, '')).not.toMatch(RAW)
    const json = await kn(dirs, ['get', 'pods', '-o', 'json'])
    expect(json.code).toBe(0)
    const items = (JSON.parse(json.stdout) as {items: {metadata: {name: string}}[]}).items
    expect(items.map((p) => p.metadata.name)).toContain(`evil-${NODE}`)
    for (const args of [['describe', 'pod', 'evil'], ['events'], ['events', 'evil']]) {
      const r = await kn(dirs, args)
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0)
      expect(r.stdout.replace(/\n/g, ''), args.join(' ')).not.toMatch(RAW)
      expect(r.stdout, args.join(' ')).toContain('\\x1b')
    }
  })

  it('oversized, truncated or foreign files are ignored, not read into memory or trusted', async () => {
    const big = 'b'.repeat(32)
    writeFileSync(join(podDir(big), 'status.json'), record(big, `big-${NODE}`, 'x'.repeat(400 * 1024)))
    writeFileSync(join(podDir(big), 'events.json'), `{"apiVersion":"kube-node.io/v1","kind":"PodEvents","uid":"${big}","events":[${'{},'.repeat(600_000)}{}]}`)
    const cut = 'c'.repeat(32)
    writeFileSync(join(podDir(cut), 'status.json'), record(cut, `cut-${NODE}`, 'half').slice(0, 80))
    const other = 'd'.repeat(32)
    writeFileSync(join(podDir(other), 'status.json'), record('e'.repeat(32), `other-${NODE}`, 'a record of another pod'))
    const r = await kn(dirs, ['get', 'pods', '-o', 'json'])
    expect(r.code, r.stderr).toBe(0)
    const names = (JSON.parse(r.stdout) as {items: {metadata: {name: string}}[]}).items.map((p) => p.metadata.name)
    expect(names).not.toContain(`big-${NODE}`)
    expect(names).not.toContain(`cut-${NODE}`)
    expect(names).not.toContain(`other-${NODE}`)
    expect((await kn(dirs, ['events', '-o', 'json'])).code).toBe(0)
  })

  it('records that are FIFOs or links are not read: get neither hangs nor follows them', async () => {
    // A FIFO as the stored manifest of a recorded pod: a blocking read would wait for a writer forever.
    const fifo = 'f'.repeat(32)
    writeFileSync(join(podDir(fifo), 'status.json'), record(fifo, `fifo-${NODE}`, 'its pod.json is a FIFO'))
    execFileSync('mkfifo', [join(podDir(fifo), 'pod.json')])
    execFileSync('mkfifo', [join(podDir('2'.repeat(32)), 'status.json')])
    const link = '1'.repeat(32)
    const outside = join(dirs.rootDir, '..', 'outside-record.json')
    writeFileSync(outside, record(link, `linked-${NODE}`, 'read through a link'))
    symlinkSync(outside, join(podDir(link), 'status.json'))
    symlinkSync('/dev/zero', join(podDir(link), 'pod.json'))
    const r = await kn(dirs, ['get', 'pods', '-o', 'json'])
    expect(r.code, r.stderr).toBe(0)
    const names = (JSON.parse(r.stdout) as {items: {metadata: {name: string}}[]}).items.map((p) => p.metadata.name)
    expect(names).toContain(`fifo-${NODE}`)
    expect(names).not.toContain(`linked-${NODE}`)
    expect((await kn(dirs, ['describe', 'pod', 'fifo'])).code).toBe(0)
  })
})
