// Unknown fields as kubectl's --validate reports them, from the generated upstream schema.
import {spawnSync} from 'node:child_process'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {API_VERSION_SOURCE, FIELDS} from '../../../src/api/generated/schema.js'
import {buildManifests} from '../../../src/manifest/build.js'
import {unknownFields} from '../../../src/manifest/unknown-fields.js'
import {ManifestCache} from '../../../src/sources/manifest-cache.js'
import {formatIssue} from '../../../src/util/errors.js'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const pod = (container: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name: 'web'},
  spec: {containers: [{name: 'web', image: 'nginx:1.27', ...container}], ...spec},
})
const yamlPod = (extra: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n${extra}`

describe('the generated schema', () => {
  it('is what scripts/gen-api.mjs generates from proto/kubernetes-api.json', () => {
    const check = spawnSync(process.execPath, ['scripts/gen-api.mjs', '--check'], {cwd: root, encoding: 'utf8'})
    expect(check.stderr).toBe('')
    expect(check.status).toBe(0)
  })

  it('comes from one named Kubernetes version, with fields newer than kubernetes-types 1.30', () => {
    expect(API_VERSION_SOURCE).toBe('v1.36')
    // stopSignal (1.33), pod-level resources (1.32), hostnameOverride (1.34).
    expect(FIELDS['Lifecycle']).toHaveProperty('stopSignal')
    expect(FIELDS['PodSpec']).toHaveProperty('resources', 'ResourceRequirements')
    expect(FIELDS['PodSpec']).toHaveProperty('hostnameOverride')
  })
})

describe('unknownFields', () => {
  it.each([
    ['a typo of a container field', pod({resouces: {}}), 'spec.containers[0].resouces', 'unknown field (did you mean "resources"?)'],
    ['the wrong case', pod({imagepullpolicy: 'Always'}), 'spec.containers[0].imagepullpolicy', 'unknown field (did you mean "imagePullPolicy"?)'],
    ['two letters swapped', pod({livenessProbe: {httpGet: {paht: '/', port: 80}}}), 'spec.containers[0].livenessProbe.httpGet.paht', 'unknown field (did you mean "path"?)'],
    ['no known field near it', pod({sidecar: true}), 'spec.containers[0].sidecar', 'unknown field (not in the Kubernetes v1.36 API)'],
    ['inside a list of objects', pod({env: [{name: 'A', valu: 'b'}]}), 'spec.containers[0].env[0].valu', 'unknown field (did you mean "value"?)'],
    ['a pod field', pod({}, {hostNetwrok: true}), 'spec.hostNetwrok', 'unknown field (did you mean "hostNetwork"?)'],
    ['a top-level field', {...pod({}), specs: {}}, 'specs', 'unknown field (did you mean "spec"?)'],
    ['a prototype key', JSON.parse('{"apiVersion":"v1","kind":"Pod","metadata":{"name":"w","__proto__":{"x":1}}}'), 'metadata.__proto__', 'unknown field (not in the Kubernetes v1.36 API)'],
    ['a key that is no plain word', pod({'a.b c': 1}), 'spec.containers[0]["a.b c"]', 'unknown field (not in the Kubernetes v1.36 API)'],
  ])('reports %s with its path', (_what, object, field, message) => {
    expect(unknownFields('Pod', object)).toEqual([{field, message}])
  })

  it.each([
    ['free-form maps (labels, annotations, nodeSelector)', {...pod({}, {nodeSelector: {anything: 'x'}}), metadata: {name: 'w', labels: {whatever: 'x'}, annotations: {'a/b': 'c'}}}],
    ['quantities and int-or-strings', pod({resources: {limits: {cpu: 1, memory: '1Gi'}}, livenessProbe: {httpGet: {port: 'http'}}})],
    ['a value of the wrong type (the field checks name it)', pod({env: 'A=b', ports: 80})],
    ['scheduling-only fields a static pod ignores', pod({}, {tolerations: [{operator: 'Exists'}], schedulingGates: [{name: 'g'}], priorityClassName: 'p', topologySpreadConstraints: [], preemptionPolicy: 'Never', overhead: {cpu: '1'}})],
  ])('accepts %s', (_what, object) => {
    expect(unknownFields('Pod', object)).toEqual([])
  })

  it('stops at 100 unknown fields, however many a document holds', () => {
    const many = Object.fromEntries(Array.from({length: 5000}, (_, i) => [`x${i}`, 1]))
    const found = unknownFields('Pod', pod(many))
    expect(found).toHaveLength(100)
    expect(found[0]?.field).toBe('spec.containers[0].x0')
  })

  it('checks ConfigMaps and Secrets too, and nothing of kinds it does not know', () => {
    expect(unknownFields('ConfigMap', {kind: 'ConfigMap', dat: {}})).toEqual([{field: 'dat', message: 'unknown field (did you mean "data"?)'}])
    expect(unknownFields('Secret', {kind: 'Secret', stringdata: {}})).toEqual([{field: 'stringdata', message: 'unknown field (did you mean "stringData"?)'}])
    expect(unknownFields('Deployment', {whatever: 1})).toEqual([])
  })
})

describe('--validate modes', () => {
  const blob = [{location: 'web.yaml', source: 'file' as const, text: yamlPod('    resouces: {}\n')}]

  it('strict (the default) refuses the document, naming file, document and field', () => {
    const r = buildManifests(blob, {nodeName: 'n1'})
    expect(r.pods).toEqual([])
    expect(r.issues.map(formatIssue)).toEqual(['web.yaml, document 0, field spec.containers[0].resouces: unknown field (did you mean "resources"?)'])
  })

  it('warn builds the pod and returns the unknown field as a warning', () => {
    const r = buildManifests(blob, {nodeName: 'n1', validate: 'warn'})
    expect(r.issues).toEqual([])
    expect(r.pods).toHaveLength(1)
    expect(r.warnings.map(formatIssue)).toEqual(['web.yaml, document 0, field spec.containers[0].resouces: unknown field (did you mean "resources"?)'])
  })

  it('ignore builds the pod and says nothing', () => {
    const r = buildManifests(blob, {nodeName: 'n1', validate: 'ignore'})
    expect([r.issues, r.warnings, r.pods.length]).toEqual([[], [], 1])
  })

  it('watch: strict keeps the last good version; warn runs the edit and carries the warning', () => {
    const strict = new ManifestCache('n1', 'file', 'strict')
    strict.setText('web.yaml', yamlPod(''))
    strict.setText('web.yaml', yamlPod('    resouces: {}\n    command: [sleep, "1"]\n'))
    const s = strict.snapshot()
    expect(s.pods[0]?.pod.spec.containers[0]?.command).toBeUndefined()
    expect(s.issues).toHaveLength(1)

    const warn = new ManifestCache('n1', 'file', 'warn')
    warn.setText('web.yaml', yamlPod(''))
    warn.setText('web.yaml', yamlPod('    resouces: {}\n    command: [sleep, "1"]\n'))
    const w = warn.snapshot()
    expect(w.pods[0]?.pod.spec.containers[0]?.command).toEqual(['sleep', '1'])
    expect([w.issues, w.warnings.map((i) => i.field)]).toEqual([[], ['spec.containers[0].resouces']])
  })
})
