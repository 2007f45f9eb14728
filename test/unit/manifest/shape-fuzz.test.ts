// Property test: a value of the wrong JSON type anywhere in a Pod, ConfigMap or Secret is refused by
// validation, never met by a later stage. Pods are a valid base touching most fields, changed at
// random paths of the generated schema to random values: plausible ones of the field's shape (so
// that many still validate and go on), subtrees built from the schema, and values of every wrong
// type. Validation must never throw, and every pod it passes must go through admission, the
// sandbox and container configs (env, mounts), volume projection and preparation, and
// computePodActions with no crash: a stage may refuse the pod only with kube-node's typed errors
// (a ConfigError, …), which name what is wrong, never with a TypeError.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {FIELDS, KINDS} from '../../../src/api/generated/schema.js'
import type {ConfigMap, Secret, StaticPod} from '../../../src/api/types.js'
import {admitPod} from '../../../src/decide/admission.js'
import {computePodActions} from '../../../src/decide/compute-pod-actions.js'
import {buildContainerConfig} from '../../../src/kuberuntime/container-config.js'
import {buildEnv} from '../../../src/kuberuntime/env.js'
import {buildSandboxConfig} from '../../../src/kuberuntime/sandbox-config.js'
import {applyDefaults} from '../../../src/manifest/defaults.js'
import {createObjectStore} from '../../../src/manifest/object-store.js'
import {validateConfigObject} from '../../../src/manifest/validate-config.js'
import {validatePod} from '../../../src/manifest/validate.js'
import {KubeNodeError} from '../../../src/util/errors.js'
import type {NodeInfo} from '../../../src/util/node-info.js'
import {projectVolume, volumeSources} from '../../../src/volumes/registry.js'
import {containerFacts} from '../../../src/kuberuntime/pod-facts.js'
import {prepareVolumes} from '../../../src/volumes/setup.js'
import {FakeHostFs} from '../../support/fake-host-fs.js'
import {HOST_DNS, baseRuntime} from '../../support/pods.js'

const NODE = 'fuzz-node'
/** Pods per run: a few seconds on a loaded 2-core machine; the stages take most of it. */
const RUNS = 800
const TIMEOUT_MS = 120_000
const ROOT = '/var/lib/kube-node'
const NODE_INFO: NodeInfo = {
  name: NODE,
  maxPods: 110,
  capacity: {cpuMilli: 2000, memoryBytes: 4 * 2 ** 30, pods: 110},
  labels: {'kubernetes.io/hostname': NODE, 'kubernetes.io/os': 'linux', disktype: 'ssd'},
  os: 'linux',
}

/** A valid pod touching the fields the later stages read, as the base of every mutation. */
function basePod(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name: 'web', namespace: 'default', labels: {app: 'web'}, annotations: {note: 'x'}},
    spec: {
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 5,
      activeDeadlineSeconds: 600,
      dnsPolicy: 'None',
      dnsConfig: {nameservers: ['1.1.1.1'], searches: ['svc'], options: [{name: 'ndots', value: '2'}]},
      hostAliases: [{ip: '10.0.0.1', hostnames: ['a']}],
      nodeSelector: {disktype: 'ssd'},
      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [
        {matchExpressions: [{key: 'disktype', operator: 'In', values: ['ssd']}], matchFields: [{key: 'metadata.name', operator: 'In', values: [NODE]}]},
      ]}}},
      tolerations: [{operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 30}],
      os: {name: 'linux'},
      overhead: {cpu: '10m'},
      securityContext: {runAsUser: 1000, runAsGroup: 1000, fsGroup: 2000, supplementalGroups: [1], sysctls: [{name: 'net.core.somaxconn', value: '1024'}], seccompProfile: {type: 'RuntimeDefault'}},
      initContainers: [{name: 'init', image: 'busybox:1.36', command: ['true'], resources: {requests: {cpu: '50m'}}}],
      containers: [
        {
          name: 'app',
          image: 'nginx:1.27',
          command: ['nginx'],
          args: ['-g', 'daemon off; $(A)'],
          workingDir: '/srv',
          env: [
            {name: 'A', value: '1'},
            {name: 'POD', valueFrom: {fieldRef: {fieldPath: 'metadata.name'}}},
            {name: 'CPU', valueFrom: {resourceFieldRef: {resource: 'limits.cpu', divisor: '1m'}}},
            {name: 'CM', valueFrom: {configMapKeyRef: {name: 'cfg', key: 'k'}}},
            {name: 'SEC', valueFrom: {secretKeyRef: {name: 'sec', key: 'k', optional: true}}},
          ],
          envFrom: [{configMapRef: {name: 'cfg'}, prefix: 'CFG_'}, {secretRef: {name: 'sec', optional: true}}],
          ports: [{name: 'http', containerPort: 80, hostPort: 8080, protocol: 'TCP'}],
          resources: {limits: {cpu: '500m', memory: '128Mi'}, requests: {cpu: '100m', memory: '64Mi'}},
          volumeMounts: [
            {name: 'data', mountPath: '/data', readOnly: true},
            {name: 'scratch', mountPath: '/scratch', subPath: 'x'},
            {name: 'cfg', mountPath: '/etc/cfg'},
            {name: 'sec', mountPath: '/etc/sec'},
            {name: 'info', mountPath: '/etc/info'},
            {name: 'all', mountPath: '/etc/all'},
          ],
          livenessProbe: {httpGet: {path: '/', port: 'http', httpHeaders: [{name: 'X', value: 'y'}]}, periodSeconds: 5, failureThreshold: 3},
          readinessProbe: {tcpSocket: {port: 80}},
          startupProbe: {grpc: {port: 9000}},
          lifecycle: {preStop: {exec: {command: ['sleep', '1']}}, postStart: {sleep: {seconds: 1}}},
          securityContext: {privileged: false, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: {add: ['NET_ADMIN'], drop: ['ALL']}},
        },
      ],
      volumes: [
        {name: 'data', hostPath: {path: '/tmp/data', type: 'DirectoryOrCreate'}},
        {name: 'scratch', emptyDir: {medium: 'Memory', sizeLimit: '64Mi'}},
        {name: 'cfg', configMap: {name: 'cfg', items: [{key: 'k', path: 'k.txt', mode: 0o600}], defaultMode: 0o644}},
        {name: 'sec', secret: {secretName: 'sec', optional: true}},
        {name: 'info', downwardAPI: {items: [{path: 'labels', fieldRef: {fieldPath: 'metadata.labels'}}, {path: 'cpu', resourceFieldRef: {containerName: 'app', resource: 'requests.cpu'}}]}},
        {name: 'all', projected: {sources: [{configMap: {name: 'cfg'}}, {downwardAPI: {items: [{path: 'name', fieldRef: {fieldPath: 'metadata.name'}}]}}]}},
      ],
    },
  }
}

const baseConfigMap = (): Record<string, unknown> => ({apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'cfg'}, data: {k: 'v', other: 'w'}, binaryData: {b: 'AQID'}})
const baseSecret = (): Record<string, unknown> => ({apiVersion: 'v1', kind: 'Secret', metadata: {name: 'sec'}, data: {k: 'c2VjcmV0'}, stringData: {s: 'plain'}})

// --- arbitraries ---------------------------------------------------------------------------

/** Values of each scalar shape that validation may accept, so mutated pods still go on. */
const PLAUSIBLE: Readonly<Record<string, fc.Arbitrary<unknown>>> = {
  string: fc.constantFrom('', 'a', 'app', 'data', 'cfg', 'k', 'TCP', 'Always', 'Never', 'IfNotPresent', 'Exists', 'In', 'NotIn', 'Gt', '/data', '/tmp/x',
    'x/y', '..', 'metadata.name', 'metadata.labels', 'status.podIP', 'spec.nodeName', 'limits.cpu', 'requests.memory', 'http', 'Memory', 'Directory',
    'RuntimeDefault', 'Localhost', 'Enabled', 'IfPossible', 'None', 'NoSchedule', 'disktype', 'ssd', '5', 'linux', 'busybox:1.36'),
  int32: fc.constantFrom(0, 1, 5, 80, 420, 65535, -1, 2 ** 31 - 1),
  int64: fc.constantFrom(0, 1, 30, -1, 2 ** 53),
  boolean: fc.boolean(),
  number: fc.constantFrom(0, 1.5),
  'int-or-string': fc.constantFrom(80, 0, 'http', '8080', 'x'),
  quantity: fc.constantFrom('1', '100m', '64Mi', '0', 0, 1.5, '1e3', '-1', '1E'),
  time: fc.constant('2024-05-01T12:00:00Z'),
  any: fc.constant({}),
}

/** Values of every JSON type, including the edges YAML can produce (huge, fractional, infinite). */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({maxLength: 6}),
  fc.integer(),
  fc.constantFrom(1.5, -0.5, 2 ** 31, 2 ** 32, 2 ** 63, -(2 ** 64), 1e300, Number.POSITIVE_INFINITY, Number.NaN),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom([], {}, [[]], [{}], [null], ['a'], [1], {a: 1}, {a: []}, {a: {}}, {'': null}),
)

/** A value built from the schema for `shape`, up to `depth` objects deep. */
function shaped(shape: string, depth: number): fc.Arbitrary<unknown> {
  if (shape.startsWith('{}')) return fc.dictionary(fc.constantFrom('a', 'k', 'cpu', 'memory'), shaped(shape.slice(2), depth), {maxKeys: 2})
  if (shape.endsWith('[]')) return fc.array(shaped(shape.slice(0, -2), depth), {maxLength: 2})
  const fields = Object.hasOwn(FIELDS, shape) ? FIELDS[shape]! : undefined
  if (!fields) return PLAUSIBLE[shape] ?? fc.constant(null)
  if (depth <= 0) return fc.constant({})
  const record: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [k, s] of Object.entries(fields)) record[k] = fc.oneof({weight: 4, arbitrary: shaped(s, depth - 1)}, {weight: 1, arbitrary: wrongValue})
  return fc.record(record, {requiredKeys: []})
}

interface Step {
  /** A key or a list index. */
  key: string | number
  /** The shape of the value at this step. */
  shape: string
}

/** A path of the schema from `root`, chosen by `choices` (one per level), and the shape at its end. */
function schemaPath(root: string, choices: readonly number[]): Step[] {
  const steps: Step[] = []
  let shape = root
  for (const c of choices) {
    if (shape.startsWith('{}')) {
      shape = shape.slice(2)
      steps.push({key: ['k', 'cpu', 'app'][c % 3]!, shape})
    } else if (shape.endsWith('[]')) {
      shape = shape.slice(0, -2)
      steps.push({key: c % 3, shape})
    } else {
      const fields = Object.hasOwn(FIELDS, shape) ? FIELDS[shape]! : undefined
      if (!fields) break
      const names = Object.keys(fields)
      const name = names[c % names.length]!
      shape = fields[name]!
      steps.push({key: name, shape})
    }
  }
  return steps
}

/**
 * A copy of `obj` with `value` at `path`, creating the lists and objects on the way. An index past
 * the end appends: decoded JSON has no holes in its lists.
 */
function setAt(obj: Record<string, unknown>, path: readonly Step[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(obj)
  let cur: unknown = copy
  path.forEach((step, i) => {
    const last = i === path.length - 1
    const container = cur as Record<string | number, unknown>
    const key = Array.isArray(cur) && typeof step.key === 'number' ? Math.min(step.key, cur.length) : step.key
    if (last) {
      container[key] = value
      return
    }
    let next = container[key]
    const wantList = path[i + 1]!.key !== undefined && typeof path[i + 1]!.key === 'number'
    if (wantList ? !Array.isArray(next) : next === null || typeof next !== 'object' || Array.isArray(next)) {
      next = wantList ? [] : {}
      container[key] = next
    }
    cur = next
  })
  return copy
}

/** One change: a schema path and the value put there (plausible, schema-built, or of a wrong type). */
function mutation(root: string): fc.Arbitrary<{path: Step[]; value: unknown}> {
  return fc.array(fc.nat(), {minLength: 1, maxLength: 9}).chain((choices) => {
    const path = schemaPath(root, choices)
    if (path.length === 0) return fc.constant({path, value: undefined})
    const shape = path[path.length - 1]!.shape
    const value = fc.oneof({weight: 3, arbitrary: wrongValue}, {weight: 2, arbitrary: shaped(shape, 2)}, {weight: 2, arbitrary: PLAUSIBLE[shape] ?? wrongValue})
    return value.map((v) => ({path, value: v}))
  })
}

function mutated(base: Record<string, unknown>, root: string, max: number): fc.Arbitrary<Record<string, unknown>> {
  return fc.array(mutation(root), {minLength: 1, maxLength: max}).map((changes) => {
    let obj = base
    for (const c of changes) if (c.path.length > 0) obj = setAt(obj, c.path, c.value)
    return obj
  })
}

// --- the stages after validation -------------------------------------------------------------

const BASE_RUNTIME = baseRuntime(applyDefaults(basePod(), {nodeName: NODE, source: {kind: 'file', location: 'p.yaml', document: 0}}))

/** A stage may refuse the pod with a typed error (a reason a person reads); anything else is a crash. */
function expectNoCrash(err: unknown, stage: string): void {
  if (err instanceof KubeNodeError) return
  throw new Error(`${stage} crashed on a validated pod: ${err instanceof Error ? err.stack : String(err)}`)
}

function stage<T>(name: string, fn: () => T): T | undefined {
  try {
    return fn()
  } catch (err) {
    expectNoCrash(err, name)
    return undefined
  }
}

async function runStages(sp: StaticPod, configMaps: ConfigMap[], secrets: Secret[]): Promise<void> {
  const admitted = admitPod(sp, [], NODE_INFO)
  // admitPod turns a crash into this rejection so that one pod cannot stop the others.
  if (!admitted.admit) expect(admitted.reason).not.toBe('UnexpectedAdmissionError')

  const objects = createObjectStore(configMaps, secrets)
  const sandboxConfig = stage('buildSandboxConfig', () =>
    buildSandboxConfig(sp, {attempt: 0, podLogsDir: '/var/log/pods', hostDns: HOST_DNS, clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local'}),
  )
  const nodeCapacity = {cpuMilli: 2000, memoryBytes: 4 * 2 ** 30}
  const deps = {fs: new FakeHostFs(), rootDir: ROOT, objects, hostIP: '192.168.1.2', nodeCapacity}
  const spec = sp.pod.spec
  for (const [i, c] of [...(spec.initContainers ?? []), ...spec.containers].entries()) {
    stage('buildEnv', () => buildEnv(sp.pod, c, {podIP: '10.1.2.3', hostIP: '192.168.1.2', objects, nodeCapacity}))
    if (sandboxConfig) {
      stage('buildContainerConfig', () =>
        buildContainerConfig(sp.pod, c, {
          restartCount: 0, rootDir: ROOT, podIP: '10.1.2.3', containerType: i < (spec.initContainers ?? []).length ? 'init' : 'regular',
          sandboxConfig, objects, nodeCapacity, volumeSource: volumeSources(ROOT, sp.pod.metadata.uid), facts: containerFacts(sp.pod, c),
        }),
      )
    }
    try {
      await prepareVolumes(deps, sp.pod, c)
    } catch (err) {
      expectNoCrash(err, 'prepareVolumes')
    }
  }
  for (const v of spec.volumes ?? []) stage('projectVolume', () => projectVolume(v, {pod: sp.pod, podIP: '10.1.2.3', objects, nodeCapacity}))
  // A new pod, the same pod running (its hashes), and an edit of the running base pod.
  const running = stage('containerHash', () => baseRuntime(sp))
  for (const runtime of [undefined, running, BASE_RUNTIME]) {
    const rt = runtime && {...runtime, uid: sp.pod.metadata.uid}
    stage('computePodActions', () => computePodActions({sp, runtime: rt, images: new Set(), probes: new Map(), backOff: new Map(), now: Date.UTC(2026, 0, 1)}))
  }
}

/** The ConfigMaps and Secrets that validate, as build.ts hands them on (namespace defaulted). */
function validObjects<T extends ConfigMap | Secret>(kind: 'ConfigMap' | 'Secret', objects: Record<string, unknown>[]): T[] {
  return objects.filter((o) => validateConfigObject(kind, o, {location: 'o.yaml', document: 0}).length === 0).map((o) => {
    const copy = structuredClone(o) as T
    copy.metadata = {...copy.metadata, namespace: copy.metadata?.namespace || 'default'}
    return copy
  })
}

async function check(pod: Record<string, unknown>, configMaps: ConfigMap[], secrets: Secret[]): Promise<boolean> {
  const issues = validatePod(pod, {location: 'p.yaml', document: 0}, {nodeName: NODE})
  for (const i of issues) expect(i.message).toMatch(/\S/)
  if (issues.length > 0) return false
  const sp = applyDefaults(pod, {nodeName: NODE, source: {kind: 'file', location: 'p.yaml', document: 0}})
  await runStages(sp, configMaps, secrets)
  return true
}

describe('invalid shapes never reach the stages after validation', () => {
  it('the base pod is valid and goes through every stage', async () => {
    expect(validatePod(basePod(), {location: 'p.yaml', document: 0}, {nodeName: NODE})).toEqual([])
    const cms = validObjects<ConfigMap>('ConfigMap', [baseConfigMap()])
    const secrets = validObjects<Secret>('Secret', [baseSecret()])
    expect([cms.length, secrets.length]).toEqual([1, 1])
    expect(await check(basePod(), cms, secrets)).toBe(true)
  })

  it.each<[string, (p: Record<string, unknown>) => void]>([
    // Found by the property below: admission read a null NodeSelector as one with terms.
    ['required node affinity', (p) => void ((p['spec'] as Record<string, unknown>)['affinity'] = {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: null}})],
    ['the pod security context', (p) => void ((p['spec'] as Record<string, unknown>)['securityContext'] = null)],
    ['container security context', (p) => void (((p['spec'] as Record<string, unknown>)['containers'] as Record<string, unknown>[])[0]!['securityContext'] = null)],
  ])('a null %s means unset, as in Go, and goes through every stage', async (_name, mutate) => {
    const pod = basePod()
    mutate(pod)
    expect(await check(pod, validObjects('ConfigMap', [baseConfigMap()]), validObjects('Secret', [baseSecret()]))).toBe(true)
  })

  it('every schema path can be reached from the Pod, the ConfigMap and the Secret', () => {
    // The walk above chooses among the fields of FIELDS; a kind missing there would fuzz nothing.
    for (const kind of ['Pod', 'ConfigMap', 'Secret']) expect(Object.hasOwn(KINDS, kind)).toBe(true)
    expect(schemaPath('Pod', [Object.keys(FIELDS['Pod']!).indexOf('spec'), Object.keys(FIELDS['PodSpec']!).indexOf('affinity')]).map((s) => s.key)).toEqual(['spec', 'affinity'])
  })

  it('a pod changed at random schema paths: validation never throws, and a validated pod never crashes a stage', async () => {
    let validated = 0
    await fc.assert(
      fc.asyncProperty(mutated(basePod(), 'Pod', 4), async (pod) => {
        if (await check(pod, validObjects('ConfigMap', [baseConfigMap()]), validObjects('Secret', [baseSecret()]))) validated++
      }),
      {numRuns: RUNS},
    )
    // Enough pods got past validation for the stages to have been exercised.
    expect(validated).toBeGreaterThan(RUNS / 10)
  }, TIMEOUT_MS)

  it('ConfigMaps and Secrets changed at random schema paths never crash env or volume resolution', async () => {
    let kept = 0
    await fc.assert(
      fc.asyncProperty(mutated(baseConfigMap(), 'ConfigMap', 3), mutated(baseSecret(), 'Secret', 3), async (cm, secret) => {
        const cms = validObjects<ConfigMap>('ConfigMap', [cm])
        const secrets = validObjects<Secret>('Secret', [secret])
        kept += cms.length + secrets.length
        await check(basePod(), cms, secrets)
      }),
      {numRuns: RUNS / 4},
    )
    expect(kept).toBeGreaterThan(RUNS / 10)
  }, TIMEOUT_MS)
})
