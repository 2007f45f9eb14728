import {describe, expect, it} from 'vitest'
import type {PodUpdate, StaticPod} from '../../../src/api/types.js'
import {PodConfig} from '../../../src/sources/pod-config.js'
import {rfc3339NanoFixed} from '../../../src/sources/pod-compare.js'
import type {SourceSnapshot} from '../../../src/sources/types.js'
import {staticPod} from './helpers.js'

const FILE = 'file:/m'
const HTTP = 'http:https://h/pods'
const T0 = Date.UTC(2024, 0, 2, 3, 4, 5, 678)
const SEEN = 'kubernetes.io/config.seen'

const snap = (pods: StaticPod[], source = FILE, extra: Partial<SourceSnapshot> = {}): SourceSnapshot => ({source, pods, issues: [], ...extra})
/** op → manifest names, the shape a person reads. */
const ops = (updates: PodUpdate[]): string[] => updates.map((u) => `${u.op} ${u.pods.map((p) => p.manifestName).join(',')}`)

function withStatus(p: StaticPod, phase: string): StaticPod {
  return {...p, pod: {...structuredClone(p.pod), status: {phase}}}
}

describe('PodConfig.apply', () => {
  const web = staticPod('web')
  const db = staticPod('db')

  it.each<[string, StaticPod[], StaticPod[], string[]]>([
    ['new pods are ADDed', [], [web, db], ['ADD web,db']],
    ['an identical snapshot changes nothing', [web], [web], []],
    ['a missing pod is REMOVEd', [web, db], [web], ['REMOVE db']],
    ['a new image is an UPDATE', [web], [staticPod('web', {image: 'nginx:1.28'})], ['UPDATE web']],
    ['a new label is an UPDATE', [web], [staticPod('web', {labels: {tier: 'front'}})], ['UPDATE web']],
    ['a new user annotation is an UPDATE', [web], [staticPod('web', {annotations: {note: 'x'}})], ['UPDATE web']],
    ['only local annotations changed: nothing', [web], [staticPod('web', {annotations: {[SEEN]: 'x', 'kubernetes.io/config.mirror': 'y'}})], []],
    ['only the status changed: RECONCILE', [web], [withStatus(web, 'Running')], ['RECONCILE web']],
    ['moved to another file, same content: RECONCILE', [web], [staticPod('web', {location: '/m/renamed.yaml'})], ['RECONCILE web']],
    [
      'all at once, in the order REMOVE, ADD, UPDATE, RECONCILE',
      [web, db, staticPod('cache')],
      [withStatus(staticPod('cache'), 'Running'), staticPod('web', {image: 'nginx:2'}), staticPod('api')],
      ['REMOVE db', 'ADD api', 'UPDATE web', 'RECONCILE cache'],
    ],
  ])('%s', (_case, before, after, expected) => {
    const config = new PodConfig([FILE])
    config.apply(snap(before), T0)
    expect(ops(config.apply(snap(after), T0 + 1000))).toEqual(expected)
    expect(config.pods().map((p) => p.manifestName)).toEqual(after.map((p) => p.manifestName))
  })

  it('stamps config.seen on ADD and keeps the first value across updates', () => {
    const config = new PodConfig([FILE])
    const [add] = config.apply(snap([web]), T0)
    expect(add?.pods[0]?.pod.metadata.annotations?.[SEEN]).toBe('2024-01-02T03:04:05.678000000Z')
    const [update] = config.apply(snap([staticPod('web', {image: 'nginx:2'})]), T0 + 60_000)
    expect(update?.op).toBe('UPDATE')
    expect(update?.pods[0]?.pod.metadata.annotations?.[SEEN]).toBe('2024-01-02T03:04:05.678000000Z')
    expect(config.pods()[0]?.pod.spec.containers[0]?.image).toBe('nginx:2')
  })

  it('does not change the pods it was given, nor hand out its own', () => {
    const config = new PodConfig([FILE])
    const given = staticPod('web')
    const [add] = config.apply(snap([given]), T0)
    expect(given.pod.metadata.annotations?.[SEEN]).toBeUndefined()
    add!.pods[0]!.pod.spec.containers[0]!.image = 'changed'
    expect(config.pods()[0]?.pod.spec.containers[0]?.image).toBe('nginx:1.27')
  })

  it('rejects a snapshot from a source it was not configured with', () => {
    expect(() => new PodConfig([FILE]).apply(snap([], HTTP), T0)).toThrow(/unknown source/)
  })
})

describe('PodConfig sources ready', () => {
  it('is ready once every source has delivered a complete snapshot', () => {
    const config = new PodConfig([FILE, HTTP])
    expect(config.allSourcesReady()).toBe(false)
    config.apply(snap([]), T0)
    expect(config.allSourcesReady()).toBe(false)
    // The URL failed before it ever answered: its pods are unknown, not absent.
    config.apply(snap([], HTTP, {complete: false, issues: [{location: 'https://h/pods', document: 0, field: '', message: 'GET returned HTTP 500'}]}), T0)
    expect(config.allSourcesReady()).toBe(false)
    expect(config.issues().map((i) => i.message)).toEqual(['GET returned HTTP 500'])
    config.apply(snap([staticPod('u', {kind: 'http'})], HTTP), T0)
    expect(config.allSourcesReady()).toBe(true)
    expect(config.issues()).toEqual([])
    // Once ready, always ready.
    config.apply(snap([], HTTP, {complete: false}), T0)
    expect(config.allSourcesReady()).toBe(true)
  })
})

describe('PodConfig duplicates across sources', () => {
  const fromFile = staticPod('web', {location: '/m/web.yaml'})
  const fromUrl = staticPod('web', {kind: 'http', location: 'https://h/pods', image: 'nginx:9'})

  it('keeps the pod of the source that holds it, and reports the other', () => {
    const config = new PodConfig([HTTP, FILE])
    config.apply(snap([fromFile]), T0)
    expect(ops(config.apply(snap([fromUrl], HTTP), T0))).toEqual([])
    expect(config.pods().map((p) => p.source.location)).toEqual(['/m/web.yaml'])
    expect(config.issues()).toEqual([
      {location: 'https://h/pods', document: 0, field: 'metadata.name', message: 'duplicate pod "default/web": also defined in /m/web.yaml, document 0; that one is used'},
    ])
  })

  it('hands the pod to the other source when its holder drops it, as an UPDATE of the same pod', () => {
    const config = new PodConfig([FILE, HTTP])
    config.apply(snap([fromFile]), T0)
    config.apply(snap([fromUrl], HTTP), T0)
    expect(ops(config.apply(snap([]), T0))).toEqual(['UPDATE web'])
    expect(config.pods().map((p) => [p.source.location, p.pod.spec.containers[0]?.image])).toEqual([['https://h/pods', 'nginx:9']])
    expect(config.issues()).toEqual([])
  })

  it('without a holder, the first source in order wins', () => {
    const HTTP2 = 'http:https://other/pods'
    const config = new PodConfig([FILE, HTTP, HTTP2])
    config.apply(snap([fromUrl], HTTP), T0)
    config.apply(snap([staticPod('web', {kind: 'http', location: 'https://other/pods', image: 'x:2'})], HTTP2), T0)
    config.apply(snap([fromFile]), T0)
    expect(config.pods().map((p) => p.source.location)).toEqual(['https://h/pods'])
    expect(config.issues().map((i) => i.location)).toEqual(['/m/web.yaml', 'https://other/pods'])
    config.apply(snap([], HTTP), T0)
    expect(config.pods().map((p) => p.source.location)).toEqual(['/m/web.yaml'])
    expect(config.issues().map((i) => i.location)).toEqual(['https://other/pods'])
  })

  it('within one snapshot, the first of two pods with the same name wins', () => {
    const config = new PodConfig([HTTP])
    config.apply(snap([fromUrl, staticPod('web', {kind: 'http', location: 'https://h/pods', image: 'x:1'})], HTTP), T0)
    expect(config.pods().map((p) => p.pod.spec.containers[0]?.image)).toEqual(['nginx:9'])
    expect(config.issues().map((i) => i.field)).toEqual(['metadata.name'])
  })

  it('reports two pods sharing a UID', () => {
    const config = new PodConfig([FILE])
    config.apply(snap([staticPod('a', {uid: 'same'}), staticPod('b', {uid: 'same'})]), T0)
    expect(config.pods().map((p) => p.manifestName)).toEqual(['a'])
    expect(config.issues().map((i) => [i.location, i.field])).toEqual([['/m/b.yaml', 'metadata.uid']])
  })
})

describe('rfc3339NanoFixed', () => {
  it.each([
    [Date.UTC(2024, 0, 2, 3, 4, 5, 0), '2024-01-02T03:04:05.000000000Z'],
    [Date.UTC(2024, 0, 2, 3, 4, 5, 7) + 0.25, '2024-01-02T03:04:05.007250000Z'],
  ])('%d → %s', (ms, text) => {
    expect(rfc3339NanoFixed(ms)).toBe(text)
  })
})

describe('PodConfig objects', () => {
  it('serves the ConfigMaps and Secrets of every source, the first source winning a name', () => {
    const config = new PodConfig([FILE, HTTP])
    const cm = (name: string, v: string) => ({apiVersion: 'v1' as const, kind: 'ConfigMap' as const, metadata: {name, namespace: 'default'}, data: {v}})
    config.apply(snap([], FILE, {configMaps: [cm('app', 'from-file')], secrets: [{apiVersion: 'v1', kind: 'Secret', metadata: {name: 's'}, stringData: {k: 'x'}}]}), T0)
    config.apply(snap([], HTTP, {configMaps: [cm('app', 'from-url'), cm('other', 'o')]}), T0)
    const store = config.objects()
    expect(store.configMap('default', 'app')?.data?.['v']).toBe('from-file')
    expect(store.configMap('default', 'other')?.data?.['v']).toBe('o')
    expect(store.secret('default', 's')?.stringData?.['k']).toBe('x')
    expect(store.configMap('kube-system', 'app')).toBeUndefined()
  })
})
