// Every import() the bundle can run works through the shipped loader. bin/run.js compiles the
// bundle with vm.Script, where an import() needs a callback the loader must give: without it every
// dynamic import throws "A dynamic import callback was not specified", which once made the tmpfs
// mount code fail to load child_process and secrets land on disk. The in-process tests never went
// through that loader, so this runs it: on a bundle that does each kind of import() there is
// (a built-in, an ES module file), and on the built bundle, whose own lazy built-in loads must be
// require() calls (scripts/bundle.mjs). Needs the build; the mounts themselves are checked in
// memory-volumes.test.ts and packaging/sea.test.ts.
import {spawnSync} from 'node:child_process'
import {copyFileSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {ROOT, makeDirs} from './support.js'

const dirs = makeDirs()
afterAll(() => dirs.cleanup())

describe('dynamic imports through the shipped loader', () => {
  it('bin/run.js lets the bundle import() a built-in and an ES module file', () => {
    // The layout bin/run.js expects, with a stand-in bundle in dist/.
    const root = join(dirs.work, 'pkg')
    mkdirSync(join(root, 'bin'), {recursive: true})
    mkdirSync(join(root, 'dist'), {recursive: true})
    copyFileSync(join(ROOT, 'bin/run.js'), join(root, 'bin/run.js'))
    copyFileSync(join(ROOT, 'bin/package.json'), join(root, 'bin/package.json'))
    writeFileSync(join(root, 'dist/esm.mjs'), 'export const answer = 42\n')
    writeFileSync(
      join(root, 'dist/kube-node.cjs'),
      `exports.main = async () => {
  const cp = await import('node:child_process')
  const esm = await import(require('node:url').pathToFileURL(require('node:path').join(__dirname, 'esm.mjs')).href)
  process.stdout.write(JSON.stringify({execFile: typeof cp.execFile, answer: esm.answer}))
}
`,
    )
    const r = spawnSync(process.execPath, [join(root, 'bin/run.js')], {encoding: 'utf8'})
    expect(r.stderr).not.toContain('dynamic import callback')
    expect(r.status, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({execFile: 'function', answer: 42})
  })

  it('the built bundle imports no module by name with import(): built-ins are required', () => {
    const bundle = readFileSync(join(ROOT, 'dist/kube-node.cjs'), 'utf8')
    // import("x") / import('x') / import(`x`): a literal specifier esbuild left outside the bundle.
    expect(bundle.match(/\bimport\(\s*["'`][^"'`]*["'`]\s*\)/g) ?? []).toEqual([])
    // The tmpfs mount code's child_process is one of those requires.
    expect(bundle).toMatch(/exports=require\("node:child_process"\)/)
  })
})
