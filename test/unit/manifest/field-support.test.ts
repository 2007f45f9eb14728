// The field table against the generated schema: every field of the v1 Pod has a record (so a
// field of a newer Kubernetes, after `npm run gen:api`, cannot slip through unnoticed), every
// record names a field that exists, and what the table says validation refuses, validation refuses.
import {describe, expect, it} from 'vitest'
import {API_VERSION_SOURCE, FIELDS, KINDS} from '../../../src/api/generated/schema.js'
import {ANNOTATION_SUPPORT, FIELD_SUPPORT, fieldFamilyPath, fieldSupport, type Support} from '../../../src/manifest/field-support.js'
import {START_AFTER_ANNOTATION} from '../../../src/manifest/start-after.js'
import {validatePod} from '../../../src/manifest/validate.js'

/** Every field path reachable from Pod, `[]` for list items and map values; leaves are scalar fields. */
function schemaPaths(): {all: Set<string>; leaves: string[]} {
  const all = new Set<string>()
  const leaves: string[] = []
  const walk = (shape: string, path: string, types: readonly string[]): void => {
    all.add(path)
    if (shape.startsWith('{}') || shape.endsWith('[]')) {
      const inner = shape.startsWith('{}') ? shape.slice(2) : shape.slice(0, -2)
      // Lists and maps of scalars are one field; of objects, each field of the item counts.
      if (Object.hasOwn(FIELDS, inner)) walk(inner, `${path}[]`, types)
      else leaves.push(path)
      return
    }
    if (!Object.hasOwn(FIELDS, shape)) {
      leaves.push(path)
      return
    }
    if (types.includes(shape)) throw new Error(`the schema recurses at ${path} (${shape}): the walk needs a stop`)
    for (const [field, inner] of Object.entries(FIELDS[shape]!)) walk(inner, path === '' ? field : `${path}.${field}`, [...types, shape])
  }
  walk(KINDS['Pod']!, '', [])
  all.delete('')
  return {all, leaves}
}

const {all, leaves} = schemaPaths()

/** The shape of the field at a schema path (`[]` steps into list items and map values). */
function shapeAt(path: string): string {
  let shape = KINDS['Pod']!
  for (const token of path.match(/[^.[\]]+|\[\]/g) ?? []) {
    if (token === '[]') shape = shape.startsWith('{}') ? shape.slice(2) : shape.slice(0, -2)
    else shape = FIELDS[shape]![token]!
  }
  return shape
}

/** A value of the right JSON type for a field of `shape`, with one item in lists. */
function sample(shape: string): unknown {
  if (shape.endsWith('[]')) return [sample(shape.slice(0, -2))]
  if (shape.startsWith('{}') || Object.hasOwn(FIELDS, shape)) return {}
  if (shape === 'boolean') return true
  if (shape === 'string') return 'x'
  return 1
}

/** A valid pod (one container, one volume without a source) with a sample value at a record's path. */
function podSetting(path: string): {pod: Record<string, unknown>; field: string} {
  const pod: Record<string, unknown> = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name: 'web'},
    spec: {containers: [{name: 'web', image: 'nginx:1.27'}], volumes: [{name: 'data'}]},
  }
  const keys = path.replaceAll('[]', '.0').split('.')
  let cur: Record<string, unknown> | unknown[] = pod
  keys.slice(0, -1).forEach((key, i) => {
    const container = cur as Record<string, unknown>
    const next = container[key]
    if (next !== null && typeof next === 'object') cur = next as Record<string, unknown>
    else cur = (container[key] = /^\d+$/.test(keys[i + 1]!) ? [] : {})
  })
  ;(cur as Record<string, unknown>)[keys[keys.length - 1]!] = sample(shapeAt(path))
  return {pod, field: path.replaceAll('[]', '[0]')}
}

const where = {location: 'pods/web.yaml', document: 0}

describe('the field table', () => {
  it(`has a record for every field of the Kubernetes ${API_VERSION_SOURCE} Pod`, () => {
    const missing = leaves.filter((p) => fieldSupport(p) === undefined)
    expect(missing, 'fields without a record in src/manifest/field-support.ts').toEqual([])
    expect(leaves.length).toBeGreaterThan(900)
  })

  it('names only fields that exist (no stale records)', () => {
    const stale = FIELD_SUPPORT.map((r) => r.path).filter((p) => !all.has(p))
    expect(stale, 'records in src/manifest/field-support.ts that match no schema path').toEqual([])
  })

  it('has one record per path', () => {
    const paths = FIELD_SUPPORT.map((r) => r.path)
    expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([])
  })

  it('says why for every record, in one sentence', () => {
    for (const r of FIELD_SUPPORT) expect(r.why, r.path).toMatch(/^[^\n]{10,300}$/)
  })

  it.each(FIELD_SUPPORT.filter((r) => r.support === 'refused').map((r) => [r.path, r.why] as const))(
    '%s is refused by validation with the table\'s sentence', (path, why) => {
      const {pod, field} = podSetting(path)
      const issues = validatePod(pod, where).filter((i) => i.field === field)
      expect(issues.some((i) => i.message.startsWith(`is not supported: ${why}`)), JSON.stringify(issues)).toBe(true)
    })

  const accepted = (path: string): void => {
    const {pod, field} = podSetting(path)
    const refusals = validatePod(pod, where).filter((i) => i.field.startsWith(field) && i.message.startsWith('is not supported'))
    expect(refusals).toEqual([])
  }
  // Being moved from a refusal in validation to a check of the runtime at run time (issue 14): this
  // row fails on purpose until that lands, and then tells whoever lands it to drop it from here.
  // (spec.volumes[].image landed: refused at run/watch time by decide/runtime-support.ts.)
  const LANDING = new Set<string>([])
  it.each(FIELD_SUPPORT.filter((r) => r.support !== 'refused' && !LANDING.has(r.path)).map((r) => [r.path, r.support] as const))(
    '%s (%s) is not refused by validation', (path) => accepted(path))
  if (LANDING.size > 0) it.fails.each([...LANDING])('%s is still refused by validation (remove it from LANDING once it is not)', (path) => accepted(path))
})

describe('fieldSupport', () => {
  it.each<[string, string, string]>([
    ['a concrete path', 'spec.containers[1].image', 'spec.containers[].image'],
    ['an init container reads as a container', 'spec.initContainers[0].securityContext.seLinuxOptions.type', 'spec.containers[].securityContext.seLinuxOptions'],
    ['a field under a refused volume kind', 'spec.volumes[3].nfs.server', 'spec.volumes[].nfs'],
    ['the longest record wins', 'spec.volumes[0].projected.sources[1].serviceAccountToken.audience', 'spec.volumes[].projected.sources[].serviceAccountToken'],
    ['the shorter one elsewhere', 'spec.volumes[0].projected.sources[1].configMap.name', 'spec.volumes[].projected'],
    ['a map key', 'metadata.labels["app.kubernetes.io/name"]', 'metadata.labels'],
    ['a whole subtree', 'status.containerStatuses[0].state.running.startedAt', 'status'],
  ])('%s: %s → %s', (_what, path, record) => {
    expect(fieldSupport(path)?.path).toBe(record)
  })

  it.each<[string, Support]>([
    ['spec.hostUsers', 'runtime'],
    ['spec.securityContext.supplementalGroupsPolicy', 'runtime'],
    ['spec.containers[0].securityContext.appArmorProfile.localhostProfile', 'runtime'],
    ['spec.containers[0].volumeMounts[0].recursiveReadOnly', 'runtime'],
    ['spec.volumes[0].image.reference', 'runtime'],
    ['spec.containers[0].env[0].valueFrom.fileKeyRef.path', 'honoured'],
    ['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key', 'honoured'],
    ['spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight', 'ignored'],
    ['spec.nodeSelector["disk"]', 'honoured'],
    ['spec.tolerations[0].key', 'ignored'],
    ['spec.priorityClassName', 'ignored'],
    ['spec.runtimeClassName', 'refused'],
    ['spec.ephemeralContainers[0].image', 'refused'],
    ['spec.volumes[0].persistentVolumeClaim.claimName', 'refused'],
  ])('%s is %s', (path, support) => {
    expect(fieldSupport(path)?.support).toBe(support)
  })

  it('gives no record for what is not a Pod field', () => {
    expect(fieldSupport('spec.containerz[0].image')).toBeUndefined()
    expect(fieldSupport('spec.volumesx')).toBeUndefined()
  })

  it('reads indices and map keys as their family', () => {
    expect(fieldFamilyPath('spec.initContainers[12].env[3].valueFrom')).toBe('spec.containers[].env[].valueFrom')
    expect(fieldFamilyPath('metadata.annotations["a.b/c[0]"]')).toBe('metadata.annotations[]')
  })
})

describe('the annotations kube-node reads', () => {
  it('include start-after under the name the manifest code reads', () => {
    expect(ANNOTATION_SUPPORT.find((a) => a.path === START_AFTER_ANNOTATION)?.support).toBe('honoured')
  })
})
