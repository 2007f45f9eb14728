// The bundle answers some packages' requires of Node built-ins with a lazy view
// (scripts/bundle-stubs/lazy-builtin.cjs, listed in scripts/lazy-builtins.mjs): the view must act
// as the module does for its importers, and loading each listed importer must not load the
// built-in. What the built CLI loads per command is checked in test/e2e/cli-entry.test.ts.
import {spawnSync} from 'node:child_process'
import * as dns from 'node:dns'
import {existsSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'
import * as zlib from 'node:zlib'
import {describe, expect, it} from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../..')
const VIEW = join(ROOT, 'scripts/bundle-stubs/lazy-builtin.cjs')
const require = createRequire(import.meta.url)
const lazyBuiltin = require(VIEW) as <T extends object>(load: () => T) => T
const {lazyBuiltins} = (await import(pathToFileURL(join(ROOT, 'scripts/lazy-builtins.mjs')).href)) as {lazyBuiltins: [string, string][]}

/** A view of `real` and the number of times it was loaded. */
function counted<T extends object>(real: T): {view: T; loads: () => number} {
  let n = 0
  const view = lazyBuiltin(() => {
    n++
    return real
  })
  return {view, loads: () => n}
}

describe('the lazy view of a built-in', () => {
  it('loads nothing until a member is read, then loads once', () => {
    const {view, loads} = counted(zlib)
    expect(loads()).toBe(0)
    const packed = view.gzipSync('hello')
    expect(view.gunzipSync(packed).toString()).toBe('hello')
    expect(loads()).toBe(1)
  })

  it('answers `in`, key listing and descriptors as the module does', () => {
    const {view} = counted(zlib)
    expect('createInflate' in view).toBe(true)
    expect('nothing' in view).toBe(false)
    expect(Object.keys(view)).toEqual(Object.keys(zlib))
    expect(Object.getOwnPropertyDescriptor(view, 'constants')?.value).toBe(zlib.constants)
    expect({...view}.deflate).toBe(zlib.deflate)
  })

  it('hands out the module\'s own members, its getters read on the module (dns.promises)', () => {
    const {view} = counted(dns)
    expect(view.promises).toBe(dns.promises)
    expect(new view.promises.Resolver()).toBeInstanceOf(dns.promises.Resolver)
  })

  it('writes an assignment through to the module', () => {
    const real: Record<string, unknown> = {a: 1}
    const {view} = counted(real)
    view['b'] = 2
    expect(real).toEqual({a: 1, b: 2})
  })
})

describe('each listed importer', () => {
  // A child process, so that the importer and its built-in are loaded fresh: its require of the
  // built-in is answered with the view, and the view counts the loads.
  const probe = `
    const Module = require('node:module')
    const lazyBuiltin = require(${JSON.stringify(VIEW)})
    const [file, builtin] = JSON.parse(process.argv[1])
    const load = Module._load
    let asked = 0, loaded = 0
    Module._load = function (request, parent, isMain) {
      if (request !== builtin || parent?.filename !== file) return load.apply(this, arguments)
      asked++
      return lazyBuiltin(() => (loaded++, load.call(this, request, parent, isMain)))
    }
    require(file)
    process.stdout.write(JSON.stringify({asked, loaded}))
  `
  it.each(lazyBuiltins)('%s requires %s at load and reads nothing of it', (file, builtin) => {
    const path = join(ROOT, 'node_modules', file)
    expect(existsSync(path)).toBe(true)
    const r = spawnSync(process.execPath, ['-e', probe, JSON.stringify([path, builtin])], {encoding: 'utf8'})
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout)).toEqual({asked: 1, loaded: 0})
  })
})
