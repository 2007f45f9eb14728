// Limits per source: a directory's files share one budget of double-quoted text and objects, and
// `run`/`validate` refuse more pods than maxPods, naming the location that passes it.
import {describe, expect, it} from 'vitest'
import {buildManifests} from '../../../src/manifest/build.js'
import {MAX_DOUBLE_QUOTED, MAX_SOURCE_DOUBLE_QUOTED, MAX_SOURCE_OBJECTS} from '../../../src/manifest/limits.js'
import {loadStaticPods} from '../../../src/manifest/load.js'
import type {ManifestBlob, ManifestIO} from '../../../src/manifest/read.js'
import {formatIssue, InvalidInputError} from '../../../src/util/errors.js'

const pod = (name: string): string => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers:\n  - name: app\n    image: nginx\n`
/** One Pod whose annotation is `chars` double-quoted characters. */
const quotedPod = (name: string, chars: number): string => `${pod(name).replace('metadata:\n', `metadata:\n  annotations:\n    note: "${'x'.repeat(chars - 2)}"\n`)}`
const manyPods = (prefix: string, n: number): string => Array.from({length: n}, (_, i) => pod(`${prefix}${i}`)).join('---\n')
const inDir = (dir: string, name: string, text: string): ManifestBlob => ({location: `${dir}/${name}`, source: 'file', text, directory: dir})

describe('double-quoted text per directory', () => {
  const big = MAX_DOUBLE_QUOTED - 1024
  const files = Array.from({length: 3}, (_, i) => inDir('/m', `f${i}.yaml`, quotedPod(`p${i}`, big)))

  it('refuses the file that would pass the directory\'s limit, naming it', () => {
    const r = buildManifests(files, {nodeName: 'n'})
    const fit = Math.floor(MAX_SOURCE_DOUBLE_QUOTED / big)
    expect(r.issues.map((i) => i.location)).toEqual(files.slice(fit).map((f) => f.location))
    expect(formatIssue(r.issues[0]!)).toMatch(/^\/m\/f2\.yaml, document 0: not decoded: .* more than 4 MiB of double-quoted strings in all \(the limit per directory\)/)
  })

  it('counts each directory (and each lone file) on its own', () => {
    const spread = files.map((f, i) => ({...f, location: `/d${i}/f.yaml`, directory: `/d${i}`}))
    expect(buildManifests(spread, {nodeName: 'n'}).issues).toEqual([])
    expect(buildManifests(files.map(({directory: _, ...f}) => f), {nodeName: 'n'}).issues).toEqual([])
  })

  it('charges what the source holds elsewhere', () => {
    const r = buildManifests([files[0]!], {nodeName: 'n', spent: {doubleQuoted: MAX_SOURCE_DOUBLE_QUOTED - 10, objects: 0}})
    expect(r.sourceFull).toBe(true)
    expect(r.pods).toEqual([])
  })
})

describe('objects per directory', () => {
  it(`refuses the file that would bring a directory past ${MAX_SOURCE_OBJECTS} objects`, () => {
    const files = Array.from({length: 3}, (_, i) => inDir('/m', `f${i}.yaml`, manyPods(`f${i}-`, 400)))
    const r = buildManifests(files, {nodeName: 'n'})
    expect(r.issues.map(formatIssue)).toEqual([`/m/f2.yaml, document 0: not decoded: with its 400 objects, the manifests of its directory would hold more than ${MAX_SOURCE_OBJECTS} objects in all (the limit per directory)`])
  })
})

describe('maxPods under run and validate', () => {
  const files: Record<string, string> = {'a.yaml': manyPods('a', 3), 'b.yaml': manyPods('b', 3)}
  const io: ManifestIO = {
    stat: async (p) => ({isFile: () => true, isDirectory: () => false, size: files[p]!.length}),
    readFile: async (p) => Buffer.from(files[p]!),
  }

  it('refuses more pods than maxPods whole, naming the location that passes it', async () => {
    const err = await loadStaticPods(['a.yaml', 'b.yaml'], {nodeName: 'n', io, maxPods: 4}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(InvalidInputError)
    expect((err as Error).message).toBe('b.yaml, document 0: passes maxPods (4), the most pods this node runs: the locations given define 6 pods in all, 3 of them here')
  })

  it('loads exactly maxPods pods', async () => {
    const {pods} = await loadStaticPods(['a.yaml', 'b.yaml'], {nodeName: 'n', io, maxPods: 6})
    expect(pods).toHaveLength(6)
  })
})

describe('aliases per location', () => {
  it('copy at most MAX_ALIAS_VALUES values across all documents of a file, not per document', () => {
    const rep = (x: string): string => `[${Array(10).fill(x).join(',')}]`
    // Each document copies ~90 000 values, under the limit alone; 380 of them would copy 34 million.
    const doc = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\na: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b ${rep('*a')}\nc: &c ${rep('*b')}\nd: &d ${rep('*c')}\ne: [*d,*d,*d,*d,*d,*d,*d]\n`
    const started = performance.now()
    const r = buildManifests([{location: 'a.yaml', source: 'file', text: Array(380).fill(doc).join('---\n')}], {nodeName: 'n'})
    expect(performance.now() - started).toBeLessThan(5000)
    expect(r.issues.map(formatIssue)).toContainEqual(expect.stringMatching(/^a\.yaml, document 1: invalid YAML: aliases expand to more than 100000 values in this location/))
    expect(buildManifests([{location: 'a.yaml', source: 'file', text: doc}], {nodeName: 'n'}).issues.some((i) => /aliases/.test(i.message))).toBe(false)
  })
})
