// Property-based fuzzing of the manifest pipeline (decode → validate → defaults): whatever text or
// object it is given — random YAML, wrong types, deep nesting, unicode, huge numbers, 10 MB files —
// it never crashes or hangs, and the answer is either valid pods or issues that name a place and
// say something.
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {performance} from 'node:perf_hooks'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {stringify} from 'yaml'
import {buildManifests, MAX_ISSUES, type BuildResult} from '../../../src/manifest/build.js'
import {decodeManifest} from '../../../src/manifest/decode.js'
import {loadStaticPods} from '../../../src/manifest/load.js'
import {MAX_MANIFEST_BYTES, type ManifestIO} from '../../../src/manifest/read.js'
import {validatePod} from '../../../src/manifest/validate.js'
import {InvalidInputError, type FieldIssue} from '../../../src/util/errors.js'

const NODE = 'fuzz-node'
/**
 * Per input: far below a hang or a quadratic blow-up, far above what a real manifest takes (1 MB of
 * bomb-shaped text: ~0.2 s), with room for a CI machine starved by other work (a 2 s budget was
 * exceeded once at a load average of 18 on 2 cores).
 */
const BUDGET_MS = 10_000
const fixture = readFileSync(fileURLToPath(new URL('../../fixtures/manifests/valid/etcd.yaml', import.meta.url)), 'utf8')

/** A valid pod touching most of the validated fields, as a mutation base. */
function richPod(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name: 'web', namespace: 'kube-system', labels: {app: 'web'}, annotations: {note: 'x'}},
    spec: {
      hostNetwork: false,
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 5,
      dnsPolicy: 'None',
      dnsConfig: {nameservers: ['1.1.1.1'], searches: ['svc'], options: [{name: 'ndots', value: '2'}]},
      hostAliases: [{ip: '10.0.0.1', hostnames: ['a', 'b']}],
      securityContext: {runAsUser: 1000, fsGroup: 2000, supplementalGroups: [1, 2], sysctls: [{name: 'net.core.somaxconn', value: '1024'}]},
      initContainers: [{name: 'init', image: 'busybox:1.36', command: ['true']}],
      containers: [
        {
          name: 'app',
          image: 'nginx:1.27',
          args: ['-g', 'daemon off;'],
          env: [{name: 'A', value: '1'}, {name: 'POD', valueFrom: {fieldRef: {fieldPath: 'metadata.name'}}}],
          ports: [{name: 'http', containerPort: 80, hostPort: 8080, protocol: 'TCP'}],
          resources: {limits: {cpu: '500m', memory: '128Mi'}, requests: {cpu: '100m'}},
          volumeMounts: [{name: 'data', mountPath: '/data', readOnly: true}],
          livenessProbe: {httpGet: {path: '/', port: 80}, periodSeconds: 5, failureThreshold: 3},
          readinessProbe: {tcpSocket: {port: 80}},
          startupProbe: {exec: {command: ['true']}},
          lifecycle: {preStop: {exec: {command: ['sleep', '1']}}, postStart: {httpGet: {path: '/x', port: 80}}},
          securityContext: {privileged: false, capabilities: {add: ['NET_ADMIN'], drop: ['ALL']}},
        },
      ],
      volumes: [
        {name: 'data', hostPath: {path: '/tmp/data', type: 'DirectoryOrCreate'}},
        {name: 'scratch', emptyDir: {medium: 'Memory'}},
      ],
    },
  }
}

// --- checks --------------------------------------------------------------------------------

function expectWellFormed(issues: readonly FieldIssue[], location?: string): void {
  // Plain checks, one expect: a 10 MB file may carry a million issues.
  const bad = issues.find(
    (i) =>
      typeof i.location !== 'string' ||
      i.location.length === 0 ||
      (location !== undefined && i.location !== location) ||
      !Number.isInteger(i.document) ||
      i.document < 0 ||
      typeof i.field !== 'string' ||
      typeof i.message !== 'string' ||
      i.message.trim().length === 0,
  )
  expect(bad).toBeUndefined()
}

/** All or nothing; pods that come out pass validation again, issues are well formed. */
function expectSoundBuild(r: BuildResult, location: string): void {
  if (r.issues.length > 0) {
    expect(r.pods).toEqual([])
    expectWellFormed(r.issues, location)
    return
  }
  for (const sp of r.pods) {
    // The defaulted name is `<name>-<node>`; validated again as a plain name, without the node.
    expect(validatePod(sp.pod, {location, document: sp.source.document})).toEqual([])
    expect(sp.pod.metadata.name.endsWith(`-${NODE}`)).toBe(true)
    expect(sp.pod.metadata.uid).toMatch(/\S/)
  }
}

/** Runs `fn` and fails if it takes longer than the budget (a hang is caught by the test timeout). */
function timed<T>(fn: () => T, budget = BUDGET_MS): T {
  const start = performance.now()
  const out = fn()
  expect(performance.now() - start).toBeLessThan(budget)
  return out
}

function buildText(text: string, location = 'fuzz.yaml'): BuildResult {
  return timed(() => buildManifests([{location, source: 'file', text}], {nodeName: NODE}))
}

// --- arbitraries ---------------------------------------------------------------------------

/** Pieces that YAML treats specially, so random strings reach more of the parser. */
const yamlToken = fc.constantFrom(
  ':', ': ', '- ', '---\n', '...\n', '\n', '  ', '\t', '{', '}', '[', ']', ',', '"', "'", '#', '&a ', '*a', '!!str ', '!!int ', '!!binary ',
  '!custom ', '? ', '|\n', '>-\n', '%YAML 1.2\n', '%TAG ! tag:x,2024:\n', '<<: *a\n', '\\', '\u0000', '\ufeff', '😀', 'ä', '\u202e',
  'apiVersion: v1\n', 'kind: Pod\n', 'kind: List\n', 'items:\n', 'metadata:\n', '  name: x\n', 'spec:\n', '  containers:\n',
  '  - name: c\n', '    image: i\n', 'null', '~', 'true', '0x1F', '1e400', '-.inf', '.nan', '0o777', '123456789012345678901234567890',
)
const yamlish = fc.array(fc.oneof(yamlToken, fc.string({maxLength: 8})), {maxLength: 60}).map((parts) => parts.join(''))

/** Values of every JSON-ish type, including the awkward ones a YAML file can produce. */
const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, -0, 2 ** 31, 2 ** 32, 2 ** 64),
  fc.string({maxLength: 20}),
  fc.string({unit: 'grapheme', maxLength: 20}),
  fc.string({unit: 'binary', maxLength: 20}),
  fc.constantFrom('', ' ', 'v1', 'Pod', 'Always', 'TCP', '80', '1Gi', '-1', 'nginx:1.27', '../../etc/passwd', '/', 'a'.repeat(300)),
)
const anyValue = fc.letrec<{value: unknown}>((tie) => ({
  value: fc.oneof(
    {depthSize: 'small', withCrossShrink: true},
    scalar,
    fc.array(tie('value'), {maxLength: 4}),
    fc.dictionary(fc.oneof(fc.string({maxLength: 10}), fc.constantFrom('name', 'image', 'containers', 'spec', 'metadata', '__proto__', 'constructor')), tie('value'), {maxKeys: 4}),
  ),
})).value

/** Every path (as keys) to a value inside `v`. */
function paths(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (prefix.length > 0) out.push(prefix)
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...prefix, i], out))
  else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) paths((v as Record<string, unknown>)[k], [...prefix, k], out)
  return out
}

type Mutation = {pick: number; op: 'delete' | 'replace' | 'wrap-list' | 'wrap-object' | 'stringify'; value: unknown}
const mutation: fc.Arbitrary<Mutation> = fc.record({
  pick: fc.nat(),
  op: fc.constantFrom('delete', 'replace', 'replace', 'wrap-list', 'wrap-object', 'stringify'),
  value: anyValue,
})

/** Applies mutations in place; each picks among the paths of the object as it is then. */
function mutate(obj: Record<string, unknown>, muts: readonly Mutation[]): Record<string, unknown> {
  for (const m of muts) {
    const all = paths(obj)
    if (all.length === 0) break
    const path = all[m.pick % all.length]!
    let parent: unknown = obj
    for (const k of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[k]
    const key = path[path.length - 1]!
    const p = parent as Record<string | number, unknown>
    const old = p[key]
    if (m.op === 'delete') {
      if (Array.isArray(p)) p.splice(Number(key), 1)
      else delete p[key]
    } else if (m.op === 'replace') p[key] = m.value
    else if (m.op === 'wrap-list') p[key] = [old]
    else if (m.op === 'wrap-object') p[key] = {value: old}
    else p[key] = JSON.stringify(old) ?? 'undefined'
  }
  return obj
}

function nestedList(depth: number, leaf: unknown): unknown {
  let v = leaf
  for (let i = 0; i < depth; i++) v = [v]
  return v
}

function nestedObject(depth: number, leaf: unknown): unknown {
  let v = leaf
  for (let i = 0; i < depth; i++) v = {a: v}
  return v
}

function memoryIO(files: Record<string, Uint8Array>): ManifestIO {
  return {
    stat: async (p) => {
      const f = files[p]
      if (!f) throw Object.assign(new Error('missing'), {code: 'ENOENT'})
      return {isFile: () => true, isDirectory: () => false, size: f.byteLength}
    },
    readFile: async (p) => files[p] ?? new Uint8Array(),
  }
}

/** loadStaticPods either loads pods or throws an InvalidInputError with well-formed issues. */
async function loadOrIssues(files: Record<string, Uint8Array>): Promise<'pods' | 'invalid'> {
  const start = performance.now()
  try {
    const set = await loadStaticPods(Object.keys(files), {nodeName: NODE, io: memoryIO(files)})
    for (const sp of set.pods) expect(validatePod(sp.pod, {location: sp.source.location, document: sp.source.document})).toEqual([])
    return 'pods'
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw new Error(`loadStaticPods threw ${String(err)}`, {cause: err})
    expect(err.issues.length).toBeGreaterThan(0)
    expectWellFormed(err.issues)
    expect(err.message.length).toBeGreaterThan(0)
    return 'invalid'
  } finally {
    expect(performance.now() - start).toBeLessThan(10_000)
  }
}

// --- properties ----------------------------------------------------------------------------

describe('manifest pipeline under fuzzing', () => {
  it('decodes any string without throwing: objects or well-formed issues', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({unit: 'binary', maxLength: 200}), yamlish), (text) => {
        const r = timed(() => decodeManifest('fuzz.yaml', text))
        expectWellFormed(r.issues, 'fuzz.yaml')
        for (const o of r.objects) expect(['Pod', 'ConfigMap', 'Secret']).toContain(o.kind)
        expectSoundBuild(buildText(text), 'fuzz.yaml')
      }),
      {numRuns: 1500},
    )
  }, 60_000)

  it('answers bomb-shaped input (brackets, dashes, separators, quotes, anchors, repeated) within the budget', () => {
    // The shapes of the adversarial bomb suite, mixed and repeated up to ~1 MB: the pre-scan
    // limits, not the parser, must decide.
    const piece = fc.constantFrom('[', '{', ']', '}', '- ', '---\n', '--- !t\n', '...\n', '"', "'", '&a ', '*a ', '!!str ', '? ', ': ', ',', '\n', '  ', 'k: v\n', '|\n', '#c\n', '\r\n')
    const bomb = fc.tuple(fc.array(piece, {minLength: 1, maxLength: 8}), fc.integer({min: 1, max: 120_000})).map(([parts, times]) => parts.join('').repeat(times).slice(0, 1024 * 1024))
    fc.assert(
      fc.property(bomb, (text) => {
        expectSoundBuild(timed(() => buildText(text)), 'fuzz.yaml')
      }),
      {numRuns: 60},
    )
  }, 120_000)

  it('builds any JSON-ish value, as YAML or as JSON, into valid pods or issues', () => {
    fc.assert(
      fc.property(anyValue, fc.boolean(), (value, asJson) => {
        const text = asJson ? (JSON.stringify(value) ?? 'null') : stringify(value)
        expectSoundBuild(buildText(text), 'fuzz.yaml')
        // validatePod on the raw value never throws either.
        expectWellFormed(timed(() => validatePod(value, {location: 'raw', document: 0}, {nodeName: NODE})), 'raw')
      }),
      {numRuns: 800},
    )
  }, 60_000)

  it('validates mutations of a valid pod: issues or a pod that stays valid after defaults', () => {
    let valid = 0
    fc.assert(
      fc.property(fc.array(mutation, {minLength: 1, maxLength: 5}), (muts) => {
        const pod = mutate(richPod(), muts)
        const issues = timed(() => validatePod(pod, {location: 'm.yaml', document: 0}, {nodeName: NODE}))
        expectWellFormed(issues, 'm.yaml')
        const r = buildText(stringify(pod), 'm.yaml')
        expectSoundBuild(r, 'm.yaml')
        if (r.pods.length > 0) valid++
      }),
      {numRuns: 600},
    )
    // The mutations are small enough that some pods stay valid: both outcomes are exercised.
    expect(valid).toBeGreaterThan(0)
  }, 60_000)

  it('checks the base pods are valid (so the mutation property starts from a valid pod)', () => {
    expect(validatePod(richPod(), {location: 'm.yaml', document: 0}, {nodeName: NODE})).toEqual([])
    expect(buildText(fixture).pods).toHaveLength(1)
  })

  it.each([
    ['unicode names', {metadata: {name: 'wéb-😀'}}],
    ['a right-to-left override in the name', {metadata: {name: 'web\u202egpj.exe'}}],
    ['a unicode container name and image', {spec: {containers: [{name: 'ñame', image: 'образ:1'}]}}],
    ['a 300-character name', {metadata: {name: 'a'.repeat(300)}}],
    ['an Infinity grace period', {spec: {terminationGracePeriodSeconds: Number.POSITIVE_INFINITY}}],
    ['a NaN port', {spec: {containers: [{name: 'c', image: 'i', ports: [{containerPort: Number.NaN}]}]}}],
    ['a port above 2^53', {spec: {containers: [{name: 'c', image: 'i', ports: [{containerPort: 2 ** 60}]}]}}],
    ['a negative zero runAsUser', {spec: {securityContext: {runAsUser: -0}}}],
    ['a 1 MB env value', {spec: {containers: [{name: 'c', image: 'i', env: [{name: 'E', value: 'x'.repeat(1 << 20)}]}]}}],
    ['10 000 containers', {spec: {containers: Array.from({length: 10_000}, (_, i) => ({name: `c${i}`, image: 'i'}))}}],
    ['10 000 duplicate container names', {spec: {containers: Array.from({length: 10_000}, () => ({name: 'c', image: 'i'}))}}],
    ['__proto__ keys', JSON.parse('{"metadata":{"name":"p","labels":{"__proto__":{"x":"y"}}},"spec":{"__proto__":{"containers":[]}}}') as Record<string, unknown>],
  ])('a pod with %s is judged quickly, without throwing', (_, patch) => {
    const pod = {...richPod(), ...patch} as Record<string, unknown>
    const issues = timed(() => validatePod(pod, {location: 'p.yaml', document: 0}, {nodeName: NODE}))
    expectWellFormed(issues, 'p.yaml')
    expectSoundBuild(timed(() => buildManifests([{location: 'p.yaml', source: 'file', text: JSON.stringify(pod)}], {nodeName: NODE})), 'p.yaml')
  })

  it.each([
    ['a flow list', '['.repeat(1000) + 'x' + ']'.repeat(1000)],
    ['a block list', '- '.repeat(1000) + 'x'],
    ['a flow mapping', '{a: '.repeat(1000) + 'x' + '}'.repeat(1000)],
    ['a block mapping', Array.from({length: 1000}, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' x'],
    ['JSON lists', JSON.stringify(nestedList(1000, 'x'))],
    ['JSON objects', JSON.stringify(nestedObject(1000, 'x'))],
  ])('survives 1000 levels of %s nesting', (_, text) => {
    // Whether the YAML library manages that depth or reports it: an issue or nothing, no crash.
    expectSoundBuild(buildText(text), 'fuzz.yaml')
    expectSoundBuild(buildText(`apiVersion: v1\nkind: Pod\nmetadata: {name: deep}\nspec:\n  containers: ${text.replace(/\n/g, '\n    ')}\n`), 'fuzz.yaml')
  })

  it.each(['spec', 'spec.containers', 'metadata.labels', 'spec.containers.0.env', 'spec.volumes.0.hostPath', 'spec.containers.0.unknownField'])(
    'validates a pod with 1000 levels of nesting at %s',
    (path) => {
      for (const deep of [nestedList(1000, 'x'), nestedObject(1000, 'x')]) {
        const pod = richPod()
        let parent: Record<string, unknown> = pod
        const keys = path.split('.')
        for (const k of keys.slice(0, -1)) parent = parent[k] as Record<string, unknown>
        parent[keys[keys.length - 1]!] = deep
        expectWellFormed(timed(() => validatePod(pod, {location: 'p.yaml', document: 0}, {nodeName: NODE})), 'p.yaml')
        expectSoundBuild(buildText(JSON.stringify(pod), 'p.yaml'), 'p.yaml')
      }
    },
  )

  it('rejects an alias bomb (billion laughs) with an issue, quickly', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for (let i = 1; i < 10; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`)
    const r = buildText(lines.join('\n'))
    expect(r.issues.length).toBeGreaterThan(0)
    expectWellFormed(r.issues)
  })

  it('loads arbitrary bytes (invalid UTF-8 included) into pods or an InvalidInputError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({maxLength: 200}), yamlish.map((s) => new TextEncoder().encode(s))), async (bytes) => {
        await loadOrIssues({'a.yaml': bytes})
      }),
      {numRuns: 300},
    )
  }, 60_000)

  it('loads a 10 MB manifest within the budget, and refuses one byte more', async () => {
    // A valid pod padded to exactly the limit with a comment: loads.
    const pod = fixture
    const pad = MAX_MANIFEST_BYTES - Buffer.byteLength(pod) - 2
    const atLimit = Buffer.from(`${pod}\n#${'x'.repeat(pad)}`)
    expect(atLimit.byteLength).toBe(MAX_MANIFEST_BYTES)
    expect(await loadOrIssues({'big.yaml': atLimit})).toBe('pods')
    // One byte more: a clear size error.
    const over = Buffer.concat([atLimit, Buffer.from('x')])
    const err = await loadStaticPods(['over.yaml'], {nodeName: NODE, io: memoryIO({'over.yaml': over})}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(InvalidInputError)
    expect((err as InvalidInputError).message).toMatch(/over\.yaml.*larger than the 10 MiB limit/)
  })

  it('reports the first of 1000 issues of one file (a List of non-objects) and a summary for the rest', async () => {
    // Found by this file: issues.push(...list) threw RangeError past ~120 000 issues. Now the
    // first MAX_ISSUES - 1 are reported and one summary line stands for the rest.
    const text = `apiVersion: v1\nkind: List\nitems: [${'1,'.repeat(999)}1]\n`
    const err = await loadStaticPods(['many.yaml'], {nodeName: NODE, io: memoryIO({'many.yaml': Buffer.from(text)})}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(InvalidInputError)
    const issues = (err as InvalidInputError).issues
    expect(issues).toHaveLength(MAX_ISSUES)
    expect(issues[0]).toEqual({location: 'many.yaml', document: 0, field: 'items[0]', message: 'must be an object, got integer'})
    expect(issues[MAX_ISSUES - 1]).toEqual({location: 'many.yaml', document: 0, field: '', message: `and ${1000 - MAX_ISSUES + 1} more problems`})
  }, 60_000)

  it('refuses a 200 000-item List before parsing it, with one issue naming the limit', async () => {
    const text = `apiVersion: v1\nkind: List\nitems: [${'1,'.repeat(199_999)}1]\n`
    const err = await loadStaticPods(['many.yaml'], {nodeName: NODE, io: memoryIO({'many.yaml': Buffer.from(text)})}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(InvalidInputError)
    expect((err as InvalidInputError).issues).toEqual([{location: 'many.yaml', document: 0, field: '', message: expect.stringContaining('YAML tokens')}])
  }, 60_000)

  it.each([
    ['one 10 MB annotation', () => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  annotations:\n    blob: "${'y'.repeat(MAX_MANIFEST_BYTES - 200)}"\nspec:\n  containers: [{name: c, image: i}]\n`],
    ['10 000 tiny documents (1 MB of issues)', () => 'x: 1\n---\n'.repeat(10_000)],
    ['garbage bytes', () => Array.from({length: MAX_MANIFEST_BYTES / 64}, (_, i) => `{[:- ${i} &a *b !! "\n`).join('').slice(0, MAX_MANIFEST_BYTES)],
    ['10 MB of one line', () => 'a'.repeat(MAX_MANIFEST_BYTES)],
  ])('a file of up to 10 MB of %s gives pods or an InvalidInputError, never a crash', async (_, make) => {
    const text = make()
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_MANIFEST_BYTES)
    await loadOrIssues({'big.yaml': Buffer.from(text)})
  }, 60_000)
})
