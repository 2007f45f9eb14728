// A projected volume's files written through a new payload directory: a write that fails half way
// (here a file where a directory must go; on a node, a full volume) leaves the volume as it was and
// no payload behind.
import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {writeAtomicDir} from '../../../src/host/atomic-dir.js'

const file = (path: string, data: string) => ({path, data: Buffer.from(data), mode: 0o644})

describe('writeAtomicDir', () => {
  const work = mkdtempSync(join(tmpdir(), 'kn-atomic-'))
  afterAll(() => rmSync(work, {recursive: true, force: true}))

  it('a write that fails half way keeps the old files and leaves no payload directory', async () => {
    const dir = join(work, 'vol')
    await writeAtomicDir(dir, [file('a', 'old')])
    const before = readdirSync(dir).sort()
    await expect(writeAtomicDir(dir, [file('a', 'new'), file('a/b', 'cannot be under a file')])).rejects.toThrow()
    expect(readdirSync(dir).sort()).toEqual(before)
    expect(readFileSync(join(dir, 'a'), 'utf8')).toBe('old')
  })
})
