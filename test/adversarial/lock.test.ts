// The single-instance lock: a stale, reused or garbage PID never blocks start-up, and of many
// processes starting at once on one root dir exactly one runs; once it dies (even kill -9) the
// next start succeeds at once.
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

const CHILD = join(import.meta.dirname, 'support/lock-child.mjs')
const children: ChildProcess[] = []
const roots: string[] = []

function newRoot(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'kn-lock-')), 'root')
  roots.push(root)
  return root
}

function start(root: string): {child: ChildProcess; outcome: Promise<string>} {
  const child = spawn(process.execPath, [CHILD, root], {stdio: ['pipe', 'pipe', 'inherit']})
  children.push(child)
  const outcome = new Promise<string>((resolve) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes('\n')) resolve(out.trim())
    })
    child.on('exit', () => resolve(out.trim()))
  })
  return {child, outcome}
}

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL')
  for (const r of roots.splice(0)) rmSync(join(r, '..'), {recursive: true, force: true})
})

describe('single-instance lock', () => {
  it.each([
    ['PID 1 (always alive)', '1\n'],
    ['this test runner\'s own PID', `${process.pid}\n`],
    ['garbage', 'not a pid at all\n'],
    ['nothing (a crash between create and write)', ''],
  ])('a lock file holding %s does not block start-up', async (_what, content) => {
    const root = newRoot()
    const first = start(root)
    expect(await first.outcome).toMatch(/^held/)
    first.child.stdin!.end()
    await new Promise((r) => first.child.once('exit', r))
    writeFileSync(join(root, 'kube-node.lock'), content)
    expect(await start(root).outcome).toMatch(/^held/)
  })

  it('of 8 concurrent starts on one root dir exactly one holds the lock', async () => {
    const root = newRoot()
    const outcomes = await Promise.all(Array.from({length: 8}, () => start(root).outcome))
    expect(outcomes.filter((o) => o.startsWith('held'))).toHaveLength(1)
    const refused = outcomes.filter((o) => o.startsWith('refused'))
    expect(refused).toHaveLength(7)
    expect(refused[0]).toMatch(/another kube-node \(pid \d+\) is already running with root dir/)
  })

  it('after the holder is killed -9 the next start succeeds at once', async () => {
    const root = newRoot()
    const holder = start(root)
    expect(await holder.outcome).toMatch(/^held/)
    expect(await start(root).outcome).toMatch(/^refused/)
    holder.child.kill('SIGKILL')
    await new Promise((r) => holder.child.once('exit', r))
    expect(await start(root).outcome).toMatch(/^held/)
  })

  it('the root dir is private (0750)', async () => {
    const root = newRoot()
    expect(await start(root).outcome).toMatch(/^held/)
    expect(statSync(root).mode & 0o777).toBe(0o750)
  })
})
