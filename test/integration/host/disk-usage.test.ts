// The emptyDir measure over a real directory a container could have shaped: links are not
// followed, hard links count once, the entry cap holds, and a missing or replaced root is no usage.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {spawnSync} from 'node:child_process'
import {createDiskUsageMeter} from '../../../src/host/disk-usage.js'

const MI = 1024 * 1024

describe('disk usage meter', () => {
  let work: string
  let dir: string
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'kn-du-'))
    dir = join(work, 'volume')
    mkdirSync(dir)
  })
  afterEach(() => rmSync(work, {recursive: true, force: true}))

  it('counts the blocks of files in nested directories', async () => {
    mkdirSync(join(dir, 'a/b'), {recursive: true})
    writeFileSync(join(dir, 'a/b/f'), Buffer.alloc(2 * MI, 1))
    const got = await createDiskUsageMeter().measure(dir)
    expect(got?.truncated).toBe(false)
    expect(got!.bytes).toBeGreaterThanOrEqual(2 * MI)
    expect(got!.bytes).toBeLessThan(2 * MI + 256 * 1024)
  })

  it('never follows a symlink, to a file or to a directory outside', async () => {
    const outside = join(work, 'outside')
    mkdirSync(outside)
    writeFileSync(join(outside, 'big'), Buffer.alloc(4 * MI, 1))
    symlinkSync(outside, join(dir, 'dir-link'))
    symlinkSync(join(outside, 'big'), join(dir, 'file-link'))
    const got = await createDiskUsageMeter().measure(dir)
    expect(got!.bytes).toBeLessThan(MI)
  })

  it('counts a hard-linked file once', async () => {
    writeFileSync(join(dir, 'f'), Buffer.alloc(2 * MI, 1))
    for (let i = 0; i < 5; i++) linkSync(join(dir, 'f'), join(dir, `link${i}`))
    const got = await createDiskUsageMeter().measure(dir)
    expect(got!.bytes).toBeLessThan(3 * MI)
  })

  it('stops at its entry cap and says the result is a lower bound', async () => {
    for (let i = 0; i < 50; i++) writeFileSync(join(dir, `f${i}`), 'x')
    const got = await createDiskUsageMeter({maxEntries: 10}).measure(dir)
    expect(got?.truncated).toBe(true)
  })

  it.runIf(process.getuid?.() === 0)('stays on the directory\'s filesystem (a mount inside is not its usage)', async () => {
    const inner = join(dir, 'mnt')
    mkdirSync(inner)
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', inner]).status).toBe(0)
    try {
      writeFileSync(join(inner, 'big'), Buffer.alloc(4 * MI, 1))
      const got = await createDiskUsageMeter().measure(dir)
      expect(got!.bytes).toBeLessThan(MI)
    } finally {
      spawnSync('umount', [inner])
    }
  })

  it('gives nothing for a missing directory or a symlink in its place', async () => {
    expect(await createDiskUsageMeter().measure(join(work, 'missing'))).toBeUndefined()
    symlinkSync(dir, join(work, 'link'))
    expect(await createDiskUsageMeter().measure(join(work, 'link'))).toBeUndefined()
  })
})
