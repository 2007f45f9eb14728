// Under watch: a directory's files share its limits (a file refused for want of room is decoded
// once room is made), and the sources together never hand more than maxPods pods to the loop.
import {describe, expect, it} from 'vitest'
import {MAX_SOURCE_OBJECTS} from '../../../src/manifest/limits.js'
import {ManifestCache} from '../../../src/sources/manifest-cache.js'
import {PodConfig} from '../../../src/sources/pod-config.js'
import {formatIssue} from '../../../src/util/errors.js'
import {NODE, podYaml, staticPod} from './helpers.js'

const FILE = 'file:/m'
const HTTP = 'http:https://h/pods'
const manyPods = (prefix: string, n: number): string => Array.from({length: n}, (_, i) => podYaml(`${prefix}${i}`)).join('---\n')

describe('ManifestCache: objects per directory', () => {
  it('keeps the files that fit, refuses the next, and decodes it once another file is gone', () => {
    const cache = new ManifestCache(NODE, 'file')
    const half = MAX_SOURCE_OBJECTS / 2
    cache.setText('/m/a.yaml', manyPods('a', half))
    cache.setText('/m/b.yaml', manyPods('b', half))
    expect(cache.setText('/m/c.yaml', podYaml('c'))).toBe(false) // not "maybe half written": no re-read
    let snap = cache.snapshot()
    expect(snap.pods).toHaveLength(MAX_SOURCE_OBJECTS)
    expect(snap.issues.map(formatIssue)).toEqual([`/m/c.yaml, document 0: not decoded: with its 1 object, the manifests of its directory would hold more than ${MAX_SOURCE_OBJECTS} objects in all (the limit per directory)`])
    // An edit that grows a kept file is refused too; its last good version stays.
    cache.setText('/m/a.yaml', manyPods('a', half + 1))
    expect(cache.snapshot().pods).toHaveLength(MAX_SOURCE_OBJECTS)
    cache.retainOnly(new Set(['/m/a.yaml', '/m/c.yaml']))
    cache.setText('/m/a.yaml', manyPods('a', half + 1))
    cache.setText('/m/c.yaml', podYaml('c'))
    snap = cache.snapshot()
    expect(snap.issues).toEqual([])
    expect(snap.pods.map((p) => p.manifestName)).toContain('c')
    expect(snap.pods).toHaveLength(half + 2)
  })
})

describe('PodConfig: at most maxPods pods from all sources', () => {
  const pods = (prefix: string, n: number, location = `/m/${prefix}.yaml`) => Array.from({length: n}, (_, i) => ({...staticPod(`${prefix}${i}`, {location}), source: {kind: 'file' as const, location, document: i}}))

  it('hands the loop maxPods pods and names the locations of the others, once each', () => {
    const config = new PodConfig([FILE], 3)
    const ops = config.apply({source: FILE, pods: [...pods('a', 2), ...pods('b', 4)], issues: []}, 0)
    expect(ops).toHaveLength(1)
    expect(ops[0]!.pods.map((p) => p.manifestName)).toEqual(['a0', 'a1', 'b0'])
    expect(config.capacityIssues().map(formatIssue)).toEqual([
      '/m/b.yaml, document 1: 3 pods "default/b1", "default/b2", "default/b3" not added: the manifest sources define more than maxPods (3) pods, the most this node runs; the pods already running keep their places',
    ])
    expect(config.issues()).toEqual(config.capacityIssues())
  })

  it('never displaces a pod it holds for a new one, from any source', () => {
    const config = new PodConfig([FILE, HTTP], 2)
    config.apply({source: HTTP, pods: pods('h', 2, 'https://h/pods'), issues: []}, 0)
    const ops = config.apply({source: FILE, pods: pods('a', 5), issues: []}, 1)
    expect(ops).toEqual([])
    expect(config.pods().map((p) => p.manifestName)).toEqual(['h0', 'h1'])
    expect(config.capacityIssues().map((i) => i.location)).toEqual(['/m/a.yaml'])
    // Room made by the other source is filled in source order.
    const after = config.apply({source: HTTP, pods: [], issues: []}, 2)
    expect(after.map((o) => `${o.op} ${o.pods.map((p) => p.manifestName).join(',')}`)).toEqual(['REMOVE h0,h1', 'ADD a0,a1'])
  })
})
