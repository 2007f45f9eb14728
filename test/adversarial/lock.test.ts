// The single-instance lock (src/node/lock.ts): a stale, reused or garbage PID never blocks start-up, and of many
// processes starting at once on one root dir exactly one runs; once it dies (even kill -9) the
// next start succeeds at once.
import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {chmodSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {argsAs, startWatchAs} from './support/daemon.js'
import {isRoot, nodeAsNobody, startAsNobody} from './support/nobody.js'

const CHILD = join(import.meta.dirname, 'support/lock-child.mjs')
const children: ChildProcess[] = []
const roots: string[] = []

function newRoot(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'kn-lock-')), 'root')
  roots.push(root)
  return root
}

/** Resolves once some process holds a flock on `file` (/proc/locks names its inode). */
async function eventuallyHeld(file: string): Promise<void> {
  const ino = statSync(file).ino
  for (let i = 0; i < 200; i++) {
    if (readFileSync('/proc/locks', 'utf8').split('\n').some((l) => / FLOCK /.test(l) && l.includes(`:${ino} `))) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`nobody took the lock on ${file}`)
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

  it('a refusal names only a PID that /proc shows holding the lock, never a stale one the file still holds', async () => {
    const root = newRoot()
    const first = start(root)
    expect(await first.outcome).toMatch(/^held/)
    first.child.stdin!.end()
    await new Promise((r) => first.child.once('exit', r))
    // A live process that holds nothing (this runner) named in the file, the lock held by another
    // program: what a start racing a new holder finds before that holder writes its PID.
    const lockFile = join(root, 'kube-node.lock')
    writeFileSync(lockFile, `${process.pid}\n`)
    const squatter = spawn('flock', ['-x', lockFile, 'sleep', '60'], {stdio: 'ignore'})
    children.push(squatter)
    await eventuallyHeld(lockFile)
    const refused = await start(root).outcome
    expect(refused).toMatch(/^refused another kube-node \(another process\) is already running/)
    expect(refused).not.toContain(String(process.pid))
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

// Another user of the host against the lock of the shipped `watch`: the lock lives in the root dir
// that only root may write, so neither the abstract socket name of earlier versions nor anything
// that user can create keeps the daemon from starting.
describe.skipIf(!isRoot)('the lock against another local user (as nobody)', () => {
  const NODE = 'adv-lock'
  const manifests = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'kn-lock-manifests-'))
    roots.push(join(d, 'x'))
    return d
  }

  /** Tries, as nobody, everything that could claim the lock of `root`; what each attempt gave. */
  const SQUAT = `
    const fs = require('node:fs'), net = require('node:net'), crypto = require('node:crypto')
    const root = process.env.ROOT
    const tries = {}
    const attempt = (what, f) => { try { f(); tries[what] = 'ok' } catch (e) { tries[what] = e.code } }
    attempt('mkdir root dir', () => fs.mkdirSync(root))
    attempt('create lock file', () => fs.writeFileSync(root + '/kube-node.lock', '1\\n'))
    attempt('open lock file', () => fs.closeSync(fs.openSync(root + '/kube-node.lock', 'r')))
    attempt('link beside the root dir', () => fs.symlinkSync(root + '-elsewhere', root + '/kube-node.api'))
    // The abstract socket the lock used to be, named after the root dir's real path.
    const name = '\\0kube-node-lock-' + crypto.createHash('sha256').update(root).digest('hex').slice(0, 40)
    const report = (result) => process.stdout.write(JSON.stringify({...tries, 'bind old lock name': result}) + '\\n')
    net.createServer().once('error', (e) => report(e.code)).listen({path: name}, () => report('ok'))
  `

  it('binding the old abstract lock name and trying to create files in the root dir does not keep watch from starting', async () => {
    const base = mkdtempSync(join(tmpdir(), 'kn-lock-squat-'))
    roots.push(join(base, 'root'))
    chmodSync(base, 0o755) // nobody may look in, not write
    const root = join(realpathSync(base), 'root')
    const dirs = {rootDir: root, logsDir: join(base, 'logs')}

    // Before the first start: the root dir does not exist yet.
    const before = await startAsNobody(SQUAT, {ROOT: root})
    squatters.push(before.stop)
    expect(JSON.parse(before.line)).toEqual({'mkdir root dir': 'EACCES', 'create lock file': 'ENOENT', 'open lock file': 'ENOENT', 'link beside the root dir': 'ENOENT', 'bind old lock name': 'ok'})
    const first = await startWatchAs(NODE, dirs, manifests())
    watches.push(first.stop)
    await healthy(first)
    await first.stop()

    // Once it exists (0750, as the first start left it), with the lock file in it; the first
    // squatter still holds the old name.
    const again = await startAsNobody(SQUAT, {ROOT: root})
    squatters.push(again.stop)
    expect(JSON.parse(again.line)).toEqual({'mkdir root dir': 'EEXIST', 'create lock file': 'EACCES', 'open lock file': 'EACCES', 'link beside the root dir': 'EACCES', 'bind old lock name': 'EADDRINUSE'})
    expect(statSync(root).mode & 0o777).toBe(0o750)
    const second = await startWatchAs(NODE, dirs, manifests())
    watches.push(second.stop)
    await healthy(second)

    // The guarantee the lock exists for still holds: a second watch on that root dir is refused.
    const third = spawnSync(process.execPath, argsAs(NODE, dirs, ['watch', manifests(), '--port', '0', '--healthz-port', '0']), {encoding: 'utf8', timeout: 60_000})
    expect(third.status).toBe(1)
    expect(third.stderr).toMatch(/another kube-node \(pid \d+\) is already running with root dir/)
    expect(readFileSync(join(root, 'kube-node.lock'), 'utf8').trim()).toMatch(/^\d+$/)
  })

  it('a root dir that another user made is refused before anything is written into it', () => {
    const made = nodeAsNobody(`process.stdout.write(require('node:fs').mkdtempSync('/tmp/kn-lock-nobody-'))`)
    expect(made.code).toBe(0)
    const root = made.stdout
    roots.push(join(root, 'x'))
    const r = spawnSync(process.execPath, argsAs(NODE, {rootDir: root, logsDir: join(root, 'logs')}, ['watch', manifests(), '--port', '0', '--healthz-port', '0']), {encoding: 'utf8', timeout: 60_000})
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/belongs to uid 65534, not to this user/)
    expect(readdirSync(root)).toEqual([])
  })
})

const watches: Array<() => Promise<void>> = []
const squatters: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all([...watches.splice(0), ...squatters.splice(0)].map((stop) => stop()))
})

async function healthy(w: {port: number; stderr: () => string; exited: () => boolean}): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${w.port}/healthz`).then((r) => r.status === 200, () => false)
    if (ok) return
    if (w.exited()) break
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`watch did not become healthy: ${w.stderr()}`)
}
