// The bundle serves commands from src/entry/commands.ts rather than from a directory search: a
// command file that is missing there would exist in the sources and be unknown to the CLI.
import {readdirSync, statSync} from 'node:fs'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {COMMANDS} from '../../../src/entry/commands.js'

const dir = fileURLToPath(new URL('../../../src/commands', import.meta.url))

function* files(d: string): Generator<string> {
  for (const name of readdirSync(d)) {
    const p = join(d, name)
    if (statSync(p).isDirectory()) yield* files(p)
    else if (p.endsWith('.ts')) yield p
  }
}

const byId = new Map([...files(dir)].map((f) => [relative(dir, f).replace(/\.ts$/, '').split('/').join(':'), f]))

describe('the command list of the bundle', () => {
  it('has every command file under src/commands, by its oclif id, and nothing else', () => {
    expect(Object.keys(COMMANDS).sort()).toEqual([...byId.keys()].sort())
  })

  it.each([...byId])('%s loads the class its file exports', async (id, file) => {
    const loaded = await COMMANDS[id]!()
    const {default: expected} = (await import(file)) as {default: unknown}
    expect(loaded).toBe(expected)
  })
})
