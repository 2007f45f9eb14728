// The JSON type of every value against its field's shape in the generated schema, as the kubelet's
// and kubectl's decoding checks it: one row per shape, then the walk, then how validation reports it.
import {readdirSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {parseAllDocuments} from 'yaml'
import {FIELDS} from '../../../src/api/generated/schema.js'
import {buildManifests} from '../../../src/manifest/build.js'
import {MAX_SHAPE_ISSUES, scalarProblem, shapeIssues} from '../../../src/manifest/shape-check.js'
import {validateConfigObject} from '../../../src/manifest/validate-config.js'
import {validatePod} from '../../../src/manifest/validate.js'
import {basePod, withPath} from './pod-builder.js'

const where = {location: 'p.yaml', document: 0}
const fieldsOf = (issues: ReadonlyArray<{field: string}>) => issues.map((i) => i.field)

describe('scalarProblem', () => {
  it.each([
    ['string', 'x', undefined],
    ['string', 8080, 'must be a string (quote it in YAML), got integer'],
    ['string', true, 'must be a string (quote it in YAML), got boolean'],
    ['string', ['x'], 'must be a string, got list'],
    ['boolean', false, undefined],
    ['boolean', 'true', 'must be true or false, got "true"'],
    ['boolean', 0, 'must be true or false, got 0'],
    ['int32', 2147483647, undefined],
    ['int32', -2147483648, undefined],
    ['int32', 2.0, undefined], // JSON has one number type: 2.0 is 2
    ['int32', 2147483648, 'must be an integer between -2147483648 and 2147483647 (int32), got 2147483648'],
    ['int32', 1.5, 'must be an integer, got 1.5'],
    ['int32', '80', 'must be an integer, got "80"'],
    ['int32', {}, 'must be an integer, got object'],
    ['int64', 2 ** 53, undefined],
    ['int64', -(2 ** 63), undefined],
    ['int64', 2 ** 63, 'must be an integer between -9223372036854775808 and 9223372036854775807 (int64), got 9223372036854776000'],
    ['int64', Number.POSITIVE_INFINITY, 'must be an integer, got Infinity'],
    ['int-or-string', 'http', undefined],
    ['int-or-string', 8080, undefined],
    ['int-or-string', 80.5, 'must be an integer or a string, got 80.5'],
    ['int-or-string', 2 ** 31, 'must be an integer between -2147483648 and 2147483647 (int32), got 2147483648'],
    ['int-or-string', true, 'must be an integer or a string, got true'],
    ['quantity', '500m', undefined],
    ['quantity', '64Mi', undefined],
    ['quantity', '-1', undefined], // decodes; the field checks refuse a negative where it matters
    ['quantity', '1e3', undefined],
    ['quantity', 0.5, undefined],
    ['quantity', '64 MB', 'must be a quantity such as "500m" or "64Mi", got "64 MB"'],
    ['quantity', [], 'must be a quantity such as "500m" or "64Mi", got list'],
    ['quantity', Number.NaN, 'must be a quantity such as "500m" or "64Mi", got NaN'],
    ['time', '2024-05-01T12:00:00Z', undefined],
    ['time', '2024-05-01T12:00:00.123+02:00', undefined],
    ['time', '2024-05-01', 'must be a time such as "2024-05-01T12:00:00Z" (RFC 3339), got "2024-05-01"'],
    ['time', 1714564800, 'must be a time such as "2024-05-01T12:00:00Z" (RFC 3339), got 1714564800'],
    ['number', 1.5, undefined],
    ['number', '1.5', 'must be a number, got "1.5"'],
    ['any', {free: ['form']}, undefined],
  ])('%s given %j', (shape, value, expected) => {
    expect(scalarProblem(shape, value)).toBe(expected)
  })
})

describe('shapeIssues', () => {
  it.each([
    ['an object written as a list', 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution', [{nodeSelectorTerms: []}],
      'must be an object (NodeSelector), got list'],
    ['a list written as an object', 'spec.tolerations', {key: 'a'}, 'must be a list of Toleration objects, got object'],
    ['a map written as a list', 'spec.nodeSelector', ['a=b'], 'must be a map of strings, got list'],
    ['a map value of the wrong type', 'spec.nodeSelector', {disk: true}, 'must be a string (quote it in YAML), got boolean'],
    ['an int64 written as a string', 'spec.tolerations', [{operator: 'Exists', tolerationSeconds: '30'}], 'must be an integer, got "30"'],
    ['an int32 beyond its range', 'spec.containers.0.readinessProbe', {exec: {command: ['true']}, periodSeconds: 2 ** 32}, 'must be an integer between -2147483648 and 2147483647 (int32), got 4294967296'],
    ['an int-or-string that is neither', 'spec.containers.0.livenessProbe', {httpGet: {port: [80]}}, 'must be an integer or a string, got list'],
    ['a quantity in an overhead-like map', 'spec.volumes.0.emptyDir', {sizeLimit: 'lots'}, 'must be a quantity such as "500m" or "64Mi", got "lots"'],
    ['a time', 'metadata.creationTimestamp', 'yesterday', 'must be a time such as "2024-05-01T12:00:00Z" (RFC 3339), got "yesterday"'],
    ['a status field (decoded too)', 'status', {containerStatuses: [{name: 'c', restartCount: 'many'}]}, 'must be an integer, got "many"'],
  ])('names %s', (_what, path, value, message) => {
    const found = shapeIssues('Pod', withPath(basePod(), path, value))
    expect(found).toHaveLength(1)
    expect(found[0]!.message).toBe(message)
  })

  it('names the exact path of a value deep in lists and maps', () => {
    const pod = withPath(basePod(), 'spec.containers.1.env', [{name: 'A', valueFrom: {resourceFieldRef: {resource: 'limits.cpu', divisor: {}}}}])
    expect(shapeIssues('Pod', withPath(pod, 'metadata.labels', {'app.kubernetes.io/name': 3}))).toEqual([
      {field: 'metadata.labels["app.kubernetes.io/name"]', message: 'must be a string (quote it in YAML), got integer'},
      {field: 'spec.containers[1].env[0].valueFrom.resourceFieldRef.divisor', message: 'must be a quantity such as "500m" or "64Mi", got object'},
    ])
  })

  it.each([
    ['null for any field (unset)', withPath(withPath(basePod(), 'spec.affinity', null), 'metadata.creationTimestamp', null)],
    ['int-or-string and quantity in either form', withPath(withPath(basePod(), 'spec.containers.0.livenessProbe', {httpGet: {port: 'http'}, tcpSocket: {port: 80}}), 'spec.overhead', {cpu: 1, memory: '64Mi'})],
    ['free-form values (managedFields)', withPath(basePod(), 'metadata.managedFields', [{manager: 'm', fieldsV1: {'f:spec': {}}}])],
    ['unknown keys (unknown-fields.ts names them)', withPath(basePod(), 'spec.containers.0.resouces', 'anything')],
  ])('tolerates %s, as Go decoding does', (_what, pod) => {
    expect(shapeIssues('Pod', pod)).toEqual([])
  })

  it('refuses null list items and map values, which Go would turn into "" or an empty object', () => {
    let pod = withPath(basePod(), 'spec.tolerations', [null])
    pod = withPath(pod, 'spec.containers.1.command', ['sleep', null])
    pod = withPath(pod, 'metadata.annotations', {a: null})
    pod = withPath(pod, 'spec.overhead', {cpu: null})
    expect(shapeIssues('Pod', pod)).toEqual([
      {field: 'metadata.annotations.a', message: 'must be a string, got null'},
      {field: 'spec.containers[1].command[1]', message: 'must be a string, got null'},
      {field: 'spec.tolerations[0]', message: 'must be an object (Toleration), got null'},
      {field: 'spec.overhead.cpu', message: 'must be a quantity such as "500m" or "64Mi", got null'},
    ])
    expect(shapeIssues('Pod', withPath(basePod(), 'metadata.managedFields', [{fieldsV1: {'f:a': null}}]))).toEqual([])
  })

  it('checks ConfigMaps and Secrets, and nothing of kinds it does not know', () => {
    expect(shapeIssues('ConfigMap', {apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'c'}, data: {port: 80}, immutable: 'yes'})).toEqual([
      {field: 'data.port', message: 'must be a string (quote it in YAML), got integer'},
      {field: 'immutable', message: 'must be true or false, got "yes"'},
    ])
    expect(shapeIssues('Secret', {apiVersion: 'v1', kind: 'Secret', metadata: {name: 's'}, stringData: ['a']})).toEqual([
      {field: 'stringData', message: 'must be a map of strings, got list'},
    ])
    expect(shapeIssues('Deployment', {spec: []})).toEqual([])
  })

  it(`stops at ${MAX_SHAPE_ISSUES} issues, however many a document holds`, () => {
    const pod = withPath(basePod(), 'spec.tolerations', Array.from({length: 100_000}, () => ({tolerationSeconds: 'x'})))
    expect(shapeIssues('Pod', pod)).toHaveLength(MAX_SHAPE_ISSUES)
    expect(shapeIssues('Pod', pod, 3)).toHaveLength(3)
  })

  it('knows every scalar shape the generated schema uses', () => {
    const scalars = new Set<string>()
    for (const fields of Object.values(FIELDS)) {
      for (const shape of Object.values(fields)) {
        const inner = shape.replace(/^\{\}/, '').replace(/\[\]$/, '')
        if (!Object.hasOwn(FIELDS, inner)) scalars.add(inner)
      }
    }
    // A new scalar (a new `format`) would pass unchecked: add it to scalarProblem first.
    expect([...scalars].sort()).toEqual(['any', 'boolean', 'int-or-string', 'int32', 'int64', 'quantity', 'string', 'time'])
  })
})

describe('validation reports shape issues', () => {
  it('as errors of validatePod, once per field', () => {
    // The field checks already name spec.hostNetwork and the affinity; the shape walk adds only
    // the fields they do not read.
    let pod = withPath(basePod(), 'spec.hostNetwork', 'yes')
    pod = withPath(pod, 'spec.affinity', {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{nodeSelectorTerms: []}]}})
    pod = withPath(pod, 'spec.tolerations', [{tolerationSeconds: '30'}])
    pod = withPath(pod, 'spec.containers.0.ports.0.containerPort', 2 ** 40)
    const issues = validatePod(pod, where)
    expect(fieldsOf(issues).sort()).toEqual([
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution',
      'spec.containers[0].ports[0].containerPort',
      'spec.hostNetwork',
      'spec.tolerations[0].tolerationSeconds',
    ])
    expect(issues.find((i) => i.field === 'spec.hostNetwork')?.message).toBe('must be true or false, got "yes"')
  })

  it('inside a field reported for another reason: a second problem, kept', () => {
    const pod = withPath(basePod(), 'spec.volumes', [{name: 'data', emptyDir: {}, secret: {secretName: 's', defaultMode: '0644'}}])
    expect(validatePod(pod, where).map((i) => `${i.field}: ${i.message}`)).toEqual([
      'spec.volumes[0]: must have exactly one volume source, got 2 (emptyDir, secret)',
      'spec.volumes[0].secret.defaultMode: must be an integer, got "0644"',
    ])
  })

  it('inside a List item, with its prefix', () => {
    const issues = validatePod(withPath(basePod(), 'spec.tolerations', [{tolerationSeconds: '30'}]), {...where, item: 2})
    expect(issues).toEqual([{location: 'p.yaml', document: 0, field: 'items[2].spec.tolerations[0].tolerationSeconds', message: 'must be an integer, got "30"'}])
  })

  it('for ConfigMaps and Secrets', () => {
    const cm = {apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'c', generation: 'one'}, data: {a: 'b'}}
    expect(validateConfigObject('ConfigMap', cm, where)).toEqual([{...where, field: 'metadata.generation', message: 'must be an integer, got "one"'}])
  })

  it('as errors under every --validate mode (a decoder fails on them too)', () => {
    const text = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n  tolerations:\n  - operator: Exists\n    tolerationSeconds: "30"\n'
    for (const validate of ['strict', 'warn', 'ignore'] as const) {
      const r = buildManifests([{location: 'p.yaml', source: 'file', text}], {nodeName: 'n', validate})
      expect(r.pods).toEqual([])
      expect(r.issues.map((i) => `${i.field}: ${i.message}`)).toEqual(['spec.tolerations[0].tolerationSeconds: must be an integer, got "30"'])
    }
  })

  it('finds nothing in the valid fixtures and the example manifests', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url))
    const found: string[] = []
    for (const dir of ['test/fixtures/manifests/valid', 'manifests']) {
      for (const file of readdirSync(root + dir).filter((f) => /\.ya?ml$/.test(f))) {
        for (const doc of parseAllDocuments(readFileSync(`${root}${dir}/${file}`, 'utf8'))) {
          const obj: unknown = doc.toJS()
          const kind = obj !== null && typeof obj === 'object' && 'kind' in obj && typeof obj.kind === 'string' ? obj.kind : ''
          for (const s of shapeIssues(kind, obj)) found.push(`${dir}/${file} ${s.field}: ${s.message}`)
        }
      }
    }
    expect(found).toEqual([])
  })
})
