// nodeHostFs.mkdirPrivate on a real directory tree: it makes what is missing (parents included)
// private, tightens kube-node's own dirs that exist with looser modes, and refuses a link or a file
// in their place, whether the directory was there before or not.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {nodeHostFs} from '../../../src/host/node-host-fs.js'

const mode = (path: string): number => statSync(path).mode & 0o7777

describe('nodeHostFs.mkdirPrivate', () => {
  let work: string
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'kn-mkdir-'))
  })
  afterEach(() => rmSync(work, {recursive: true, force: true}))

  it('makes a missing directory 0750, and its missing parents', async () => {
    const dir = join(work, 'a/b/root')
    await expect(nodeHostFs.mkdirPrivate(dir)).resolves.toBe(true)
    expect(mode(dir)).toBe(0o750)
    expect(statSync(join(work, 'a/b')).isDirectory()).toBe(true)
  })

  it('leaves an existing root dir as it is, and tightens an existing own dir to 0750', async () => {
    const root = join(work, 'root')
    const pods = join(root, 'pods')
    mkdirSync(pods, {recursive: true})
    chmodSync(root, 0o755)
    chmodSync(pods, 0o777)
    await nodeHostFs.mkdirPrivate(root)
    await nodeHostFs.mkdirPrivate(pods, {tighten: true})
    expect(mode(root)).toBe(0o755)
    expect(mode(pods)).toBe(0o750)
    // Already right: nothing changes, again and again; none of these calls made a directory.
    await expect(nodeHostFs.mkdirPrivate(pods, {tighten: true})).resolves.toBe(false)
    expect(mode(pods)).toBe(0o750)
  })

  it('follows a link for a root dir, but refuses one in place of an own dir', async () => {
    const real = join(work, 'real')
    mkdirSync(real)
    symlinkSync(real, join(work, 'root'))
    await expect(nodeHostFs.mkdirPrivate(join(work, 'root'))).resolves.toBe(false)
    symlinkSync(real, join(work, 'pods'))
    await expect(nodeHostFs.mkdirPrivate(join(work, 'pods'), {tighten: true})).rejects.toThrow(/is not a directory/)
  })

  it('refuses a file in place of the directory', async () => {
    writeFileSync(join(work, 'pods'), '')
    await expect(nodeHostFs.mkdirPrivate(join(work, 'pods'), {tighten: true})).rejects.toThrow(/is not a directory/)
    await expect(nodeHostFs.mkdirPrivate(join(work, 'pods'))).rejects.toThrow(/is not a directory/)
  })

  it('refuses a dangling link in place of an own dir', async () => {
    symlinkSync(join(work, 'nowhere'), join(work, 'pods'))
    await expect(nodeHostFs.mkdirPrivate(join(work, 'pods'), {tighten: true})).rejects.toThrow(/is not a directory/)
  })
})
