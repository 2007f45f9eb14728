import {describe, expect, it} from 'vitest'
import {decodeManifest, MAX_DOCUMENTS} from '../../../src/manifest/decode.js'

const pod = (name: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers:\n  - name: c\n    image: busybox\n`
const summary = (text: string) =>
  decodeManifest('m.yaml', text).objects.map((o) => ({kind: o.kind, ref: o.ref, name: (o.object['metadata'] as {name: string}).name}))

describe('decodeManifest', () => {
  it('decodes one pod', () => {
    expect(summary(pod('a'))).toEqual([{kind: 'Pod', ref: {location: 'm.yaml', document: 0}, name: 'a'}])
  })

  it('decodes multi-document YAML, counting empty and comment-only documents in the numbering', () => {
    const text = `${pod('a')}---\n# just a comment\n---\n${pod('b')}---\n`
    expect(summary(text)).toEqual([
      {kind: 'Pod', ref: {location: 'm.yaml', document: 0}, name: 'a'},
      {kind: 'Pod', ref: {location: 'm.yaml', document: 2}, name: 'b'},
    ])
    expect(decodeManifest('m.yaml', text).issues).toEqual([])
  })

  it('returns nothing for an empty file', () => {
    expect(decodeManifest('m.yaml', '')).toMatchObject({objects: [], issues: []})
    expect(decodeManifest('m.yaml', '---\n# nothing\n')).toMatchObject({objects: [], issues: []})
  })

  it('decodes JSON', () => {
    const json = JSON.stringify({apiVersion: 'v1', kind: 'Pod', metadata: {name: 'j'}, spec: {containers: []}})
    expect(summary(json)).toEqual([{kind: 'Pod', ref: {location: 'm.yaml', document: 0}, name: 'j'}])
  })

  it('expands a List into items that keep the document index', () => {
    const list = {apiVersion: 'v1', kind: 'List', items: [
      {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'x'}},
      {apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'cm'}},
    ]}
    const text = `${pod('first')}---\n${JSON.stringify(list)}`
    expect(summary(text)).toEqual([
      {kind: 'Pod', ref: {location: 'm.yaml', document: 0}, name: 'first'},
      {kind: 'Pod', ref: {location: 'm.yaml', document: 1, item: 0}, name: 'x'},
      {kind: 'ConfigMap', ref: {location: 'm.yaml', document: 1, item: 1}, name: 'cm'},
    ])
  })

  it('accepts PodList items without apiVersion and kind', () => {
    const text = JSON.stringify({apiVersion: 'v1', kind: 'PodList', items: [{metadata: {name: 'p'}}]})
    expect(summary(text)).toEqual([{kind: 'Pod', ref: {location: 'm.yaml', document: 0, item: 0}, name: 'p'}])
  })

  it('returns ConfigMaps and Secrets separately from pods', () => {
    const text = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n`
    expect(summary(text).map((o) => o.kind)).toEqual(['Secret', 'ConfigMap'])
  })

  it.each<[string, string, {document: number; field: string; message: string}]>([
    ['another kind', 'apiVersion: apps/v1\nkind: Deployment\n', {document: 0, field: 'kind', message: 'must be Pod, List or PodList (ConfigMap and Secret are also accepted), got "Deployment"'}],
    ['no kind', 'apiVersion: v1\nmetadata: {}\n', {document: 0, field: 'kind', message: 'must be set (Pod, List or PodList)'}],
    ['wrong apiVersion', 'apiVersion: v2\nkind: Pod\n', {document: 0, field: 'apiVersion', message: 'must be v1, got "v2"'}],
    ['no apiVersion', 'kind: Pod\n', {document: 0, field: 'apiVersion', message: 'must be set to v1'}],
    ['a scalar document', 'hello\n', {document: 0, field: '', message: 'must be a Kubernetes object with apiVersion and kind, got string'}],
    ['a list document', '- a\n- b\n', {document: 0, field: '', message: 'must be a Kubernetes object with apiVersion and kind, got list'}],
    ['List items not a list', 'apiVersion: v1\nkind: List\nitems: {}\n', {document: 0, field: 'items', message: 'must be a list, got object'}],
    ['List item a string', 'apiVersion: v1\nkind: List\nitems: [x]\n', {document: 0, field: 'items[0]', message: 'must be an object, got string'}],
    ['List item of another kind', 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Service}\n', {document: 0, field: 'items[0].kind', message: 'must be Pod, List or PodList (ConfigMap and Secret are also accepted), got "Service"'}],
    ['PodList item not a Pod', 'apiVersion: v1\nkind: PodList\nitems:\n- {apiVersion: v1, kind: ConfigMap}\n', {document: 0, field: 'items[0].kind', message: 'must be Pod in a PodList, got "ConfigMap"'}],
    ['nested List', 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: List}\n', {document: 0, field: 'items[0].kind', message: 'a List may not be nested in a List'}],
    ['bad second document', `${pod('a')}---\nkind: Pod\napiVersion: v9\n`, {document: 1, field: 'apiVersion', message: 'must be v1, got "v9"'}],
    ['duplicate key', 'apiVersion: v1\nkind: Pod\nkind: Pod\n', {document: 0, field: '', message: 'invalid YAML: map keys must be unique at line 3, column 1'}],
    ['tab indentation in document 1', `${pod('a')}---\nspec:\n\tcontainers: []\n`, {document: 1, field: '', message: 'invalid YAML: tabs are not allowed as indentation at line 11, column 1'}],
    ['unresolved alias', 'a: *nope\n', {document: 0, field: '', message: 'invalid YAML: unresolved alias (the anchor must be set before the alias): nope at line 1, column 4'}],
  ])('reports %s', (_what, text, expected) => {
    expect(decodeManifest('m.yaml', text).issues).toEqual([{location: 'm.yaml', ...expected}])
  })
})

describe('document limit', () => {
  it('refuses a location with more documents than MAX_DOCUMENTS before parsing it', () => {
    const r = decodeManifest('many.yaml', 'x: 1\n---\n'.repeat(MAX_DOCUMENTS))
    expect(r.objects).toEqual([])
    expect(r.issues).toEqual([{location: 'many.yaml', document: 0, field: '', message: `has more than ${MAX_DOCUMENTS} YAML documents; at most ${MAX_DOCUMENTS} are allowed in one location`}])
  })
})
