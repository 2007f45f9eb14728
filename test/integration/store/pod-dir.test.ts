import {chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {nodeHostFs} from '../../../src/host/node-host-fs.js'
import {ensurePodDir, PodDirs, STALE_TEMPORARY_MS} from '../../../src/store/pod-dir.js'
import {writeJsonFile} from '../../../src/store/json-file.js'

const dirs: string[] = []
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'kn-hostfs-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
})
const mode = (p: string): string => (statSync(p).mode & 0o777).toString(8)

describe('ensurePodDir', () => {
  it('creates root, pods/ and the pod dir 0750', async () => {
    const root = join(temp(), 'root')
    const dir = await ensurePodDir(nodeHostFs, root, 'uid-1')
    expect([mode(root), mode(join(root, 'pods')), mode(dir)]).toEqual(['750', '750', '750'])
  })

  it('tightens pods/ and a pod dir that are wider, but never an existing root dir a user chose', async () => {
    const root = temp()
    chmodSync(root, 0o755)
    mkdirSync(join(root, 'pods/uid-1'), {recursive: true, mode: 0o777})
    chmodSync(join(root, 'pods'), 0o777)
    chmodSync(join(root, 'pods/uid-1'), 0o777)
    await ensurePodDir(nodeHostFs, root, 'uid-1')
    expect([mode(root), mode(join(root, 'pods')), mode(join(root, 'pods/uid-1'))]).toEqual(['755', '750', '750'])
  })

  it('accepts a root dir that is a link, refuses a pod dir that is one', async () => {
    const base = temp()
    mkdirSync(join(base, 'real'))
    symlinkSync(join(base, 'real'), join(base, 'root'))
    await ensurePodDir(nodeHostFs, join(base, 'root'), 'uid-1')
    symlinkSync('/tmp', join(base, 'real/pods/uid-2'))
    await expect(ensurePodDir(nodeHostFs, join(base, 'root'), 'uid-2')).rejects.toThrow(/not a directory/)
  })
})

describe('PodDirs', () => {
  const record = (root: string, uid: string): string => join(root, 'pods', uid, 'status.json')

  it('makes the pod dir 0750 at the first write only, and again when it has gone', async () => {
    const root = join(temp(), 'root')
    const fs = {...nodeHostFs, mkdirPrivate: vi.fn(nodeHostFs.mkdirPrivate)}
    const writes = new PodDirs(fs, root)
    const write = (text: string): Promise<void> => writes.write('uid-1', () => writeJsonFile(fs, record(root, 'uid-1'), text))
    await write('{"n":1}')
    await write('{"n":2}')
    expect(fs.mkdirPrivate).toHaveBeenCalledTimes(3)
    expect(mode(join(root, 'pods/uid-1'))).toBe('750')
    rmSync(join(root, 'pods'), {recursive: true})
    await write('{"n":3}')
    expect(readFileSync(record(root, 'uid-1'), 'utf8')).toBe('{"n":3}')
    expect([mode(join(root, 'pods')), mode(join(root, 'pods/uid-1'))]).toEqual(['750', '750'])
  })

  it('checks the dir again after forget, tightening one that was widened meanwhile', async () => {
    const root = join(temp(), 'root')
    const writes = new PodDirs(nodeHostFs, root)
    const write = (): Promise<void> => writes.write('uid-1', () => writeJsonFile(nodeHostFs, record(root, 'uid-1'), '{}'))
    await write()
    chmodSync(join(root, 'pods/uid-1'), 0o777)
    writes.forget('uid-1')
    await write()
    expect(mode(join(root, 'pods/uid-1'))).toBe('750')
  })

  it('writes a record without looking again at a directory the executor made for its sandbox', async () => {
    const root = join(temp(), 'root')
    const fs = {...nodeHostFs, mkdirPrivate: vi.fn(nodeHostFs.mkdirPrivate)}
    const dirs = new PodDirs(fs, root)
    await dirs.ensure('uid-1')
    await dirs.write('uid-1', () => writeJsonFile(fs, record(root, 'uid-1'), '{}'))
    expect(fs.mkdirPrivate).toHaveBeenCalledTimes(3)
    expect(readFileSync(record(root, 'uid-1'), 'utf8')).toBe('{}')
  })

  it('tightens a widened pod dir before each new sandbox, although it made the dir before', async () => {
    const root = join(temp(), 'root')
    const dirs = new PodDirs(nodeHostFs, root)
    await dirs.ensure('uid-1')
    chmodSync(join(root, 'pods/uid-1'), 0o777)
    await dirs.ensure('uid-1')
    expect(mode(join(root, 'pods/uid-1'))).toBe('750')
  })

  it('passes on any failure other than a missing directory', async () => {
    const writes = new PodDirs(nodeHostFs, join(temp(), 'root'))
    const denied = Object.assign(new Error('EACCES: permission denied'), {code: 'EACCES'})
    await expect(writes.write('uid-1', () => Promise.reject(denied))).rejects.toBe(denied)
  })
})

describe('PodDirs: what a killed process left half written', () => {
  /** A pod directory as a process killed in the middle of its record writes leaves it, `ageMs` later. */
  const killedMidWrite = (root: string, ageMs = STALE_TEMPORARY_MS + 60_000): string => {
    const dir = join(root, 'pods/uid-1')
    mkdirSync(dir, {recursive: true, mode: 0o750})
    for (const name of ['status.json', 'events.json', 'pod.json', '.status.json.0a1b2c3d.tmp', '.events.json.ffffffff.tmp', '.pod.json.4242.tmp', '.hidden', 'x.tmp']) writeFileSync(join(dir, name), '{')
    mkdirSync(join(dir, '.volume.1.tmp'))
    symlinkSync('/etc/hostname', join(dir, '.link.2.tmp'))
    const then = new Date(Date.now() - ageMs)
    for (const name of readdirSync(dir)) if (name !== '.link.2.tmp') utimesSync(join(dir, name), then, then)
    return dir
  }

  it("removes the stale temporary files at the process's first look, and nothing else", async () => {
    const root = join(temp(), 'root')
    const dir = killedMidWrite(root)
    await new PodDirs(nodeHostFs, root).ensure('uid-1')
    expect(readdirSync(dir).sort()).toEqual(['.hidden', '.link.2.tmp', '.volume.1.tmp', 'events.json', 'pod.json', 'status.json', 'x.tmp'])
    expect(existsSync('/etc/hostname')).toBe(true)
  })

  it('keeps a temporary file that a live writer may still be renaming', async () => {
    const root = join(temp(), 'root')
    const dir = killedMidWrite(root, STALE_TEMPORARY_MS - 60_000)
    await new PodDirs(nodeHostFs, root).ensure('uid-1')
    expect(readdirSync(dir)).toContain('.status.json.0a1b2c3d.tmp')
  })

  it('looks once per pod and process, and again after the pod was forgotten', async () => {
    const root = join(temp(), 'root')
    killedMidWrite(root)
    const fs = {...nodeHostFs, list: vi.fn(nodeHostFs.list)}
    const dirs = new PodDirs(fs, root)
    await dirs.ensure('uid-1')
    await dirs.ensure('uid-1')
    await dirs.write('uid-1', () => writeJsonFile(fs, join(root, 'pods/uid-1/status.json'), '{}'))
    expect(fs.list).toHaveBeenCalledTimes(1)
    dirs.forget('uid-1')
    await dirs.ensure('uid-1')
    expect(fs.list).toHaveBeenCalledTimes(2)
  })

  it('does not look into a directory it has just made', async () => {
    const root = join(temp(), 'root')
    const fs = {...nodeHostFs, list: vi.fn(nodeHostFs.list)}
    await new PodDirs(fs, root).ensure('uid-1')
    expect(fs.list).not.toHaveBeenCalled()
  })

  it('never fails the pod when the directory cannot be read', async () => {
    const root = join(temp(), 'root')
    killedMidWrite(root)
    const denied = Object.assign(new Error('EACCES: permission denied'), {code: 'EACCES'})
    const fs = {...nodeHostFs, list: vi.fn(() => Promise.reject(denied)), unlink: vi.fn(() => Promise.reject(denied))}
    await expect(new PodDirs(fs, root).ensure('uid-1')).resolves.toBe(join(root, 'pods/uid-1'))
  })
})
