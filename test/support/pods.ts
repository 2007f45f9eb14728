// The one set of pod builders for every test: static pods as the manifest pipeline hands them to
// the core (a one-container `web-node1`, fully defaulted, or the three-container base pod of the
// decision tests, as the kubelet's makeBasePodAndStatus), containers, and the runtime's view of a
// pod (a ready sandbox with every container running and current). Tests mutate copies of these.
import type {Container, Pod, StaticPod} from '../../src/api/types.js'
import type {DNSConfig} from '../../src/cri/api.js'
import type {RuntimeContainer, RuntimePod, RuntimeSandbox} from '../../src/kuberuntime/model.js'
import type {PodAction} from '../../src/decide/actions.js'
import {HASH_VERSION, containerHash, sandboxHash} from '../../src/kuberuntime/hash.js'
import {podFacts} from '../../src/kuberuntime/pod-facts.js'

// ---- a defaulted one-container static pod

/**
 * The static pod with its facts worked out from its pod at each read: tests change their pods
 * after building them (a StaticPod the node builds is never changed, and its facts are worked out
 * once). A copy (structuredClone, a spread) keeps the facts of the moment it was made.
 */
export function withLiveFacts(sp: Omit<StaticPod, 'facts'>): StaticPod {
  return Object.defineProperty(sp, 'facts', {get: () => podFacts(sp.pod), enumerable: true, configurable: true}) as StaticPod
}

export const UID = '0123456789abcdef0123456789abcdef'

/** A defaulted static pod `web-node1` in `default` with one container `app`. */
export function makeStaticPod(mutate: (pod: StaticPod['pod']) => void = () => {}): StaticPod {
  const pod: StaticPod['pod'] = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name: 'web-node1', namespace: 'default', uid: UID, labels: {app: 'web'}, annotations: {note: 'hi'}},
    spec: {
      nodeName: 'node1',
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      terminationGracePeriodSeconds: 30,
      containers: [makeContainer()],
    },
  }
  mutate(pod)
  return withLiveFacts({pod, source: {kind: 'file', location: '/etc/kube-node/web.yaml', document: 0}, manifestName: 'web'})
}

export function makeContainer(overrides: Partial<Container> = {}): Container {
  return {
    name: 'app',
    image: 'nginx:1.27',
    imagePullPolicy: 'IfNotPresent',
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    ...overrides,
  }
}

export function podOf(mutate: (pod: StaticPod['pod']) => void = () => {}): Pod {
  return makeStaticPod(mutate).pod
}

/**
 * A static pod `<name>-node1` with exactly these containers and nothing defaulted, for tests that
 * need several pods or a bare spec.
 */
export function namedPod(
  name: string,
  containers: Container[],
  opts: {uid?: string; location?: string; mutate?: (pod: StaticPod['pod']) => void} = {},
): StaticPod {
  const pod: StaticPod['pod'] = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name: `${name}-node1`, namespace: 'default', uid: opts.uid ?? `uid-${name}`},
    spec: {nodeName: 'node1', containers},
  }
  opts.mutate?.(pod)
  return withLiveFacts({pod, source: {kind: 'file', location: opts.location ?? `/etc/kube-node/${name}.yaml`, document: 0}, manifestName: name})
}

export const HOST_DNS: DNSConfig = {servers: ['192.168.1.1'], searches: ['lan'], options: ['edns0']}

// ---- the base pod of the decision tests, and its runtime view

export const T0 = Date.parse('2025-01-01T00:00:00Z')
export const NOW = T0 + 600_000

export function container(name: string, image: string, extra: Partial<Container> = {}): Container {
  return {name, image, imagePullPolicy: 'IfNotPresent', ...extra}
}

export function basePod(): StaticPod {
  return withLiveFacts({
    pod: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: 'web-node1', namespace: 'default', uid: 'uid-1'},
      spec: {
        restartPolicy: 'Always',
        containers: [container('foo1', 'busybox:1.36'), container('foo2', 'alpine:3.20'), container('foo3', 'nginx:1.27')],
      },
    },
    source: {kind: 'file', location: '/etc/kube-node/web.yaml', document: 0},
    manifestName: 'web',
  })
}

/** The images of the base pod, as the runtime lists them. */
export const PRESENT: ReadonlySet<string> = new Set([
  'docker.io/library/busybox:1.36',
  'docker.io/library/alpine:3.20',
  'docker.io/library/nginx:1.27',
])

export function sandbox(sp: StaticPod, extra: Partial<RuntimeSandbox> = {}): RuntimeSandbox {
  return {
    id: 'sandbox-1',
    state: 'ready',
    attempt: 0,
    createdAt: T0,
    ip: '10.0.0.1',
    hash: sandboxHash(sp.pod),
    hashVersion: HASH_VERSION,
    labels: {},
    annotations: {},
    ...extra,
  }
}

/** A running, current runtime container for the spec container `name` (init or regular). */
export function runtimeContainer(sp: StaticPod, name: string, extra: Partial<RuntimeContainer> = {}): RuntimeContainer {
  const spec = sp.pod.spec
  const init = (spec.initContainers ?? []).find((c) => c.name === name)
  const c = init ?? spec.containers.find((x) => x.name === name)
  if (c === undefined) throw new Error(`no container ${name} in the test pod`)
  return {
    id: `id-${name}`,
    sandboxId: 'sandbox-1',
    name,
    type: init === undefined ? 'regular' : init.restartPolicy === 'Always' ? 'sidecar' : 'init',
    state: 'running',
    restartCount: 0,
    hash: containerHash(sp.pod, c),
    hashVersion: HASH_VERSION,
    createdAt: T0 + 1000,
    startedAt: T0 + 2000,
    finishedAt: 0,
    exitCode: 0,
    reason: '',
    message: '',
    image: c.image ?? '',
    imageRef: `sha256:${name.padEnd(64, '0').slice(0, 64)}`,
    logPath: `/var/log/pods/default_web-node1_uid-1/${name}/0.log`,
    ...extra,
  }
}

export function exited(exitCode: number, extra: Partial<RuntimeContainer> = {}): Partial<RuntimeContainer> {
  return {state: 'exited', exitCode, finishedAt: T0 + 5000, reason: exitCode === 0 ? 'Completed' : 'Error', ...extra}
}

/** The base runtime: one ready sandbox and every regular container running and current. */
export function baseRuntime(sp: StaticPod): RuntimePod {
  return {
    uid: sp.pod.metadata.uid,
    name: sp.pod.metadata.name,
    namespace: sp.pod.metadata.namespace,
    manifestName: sp.manifestName,
    sandboxes: [sandbox(sp)],
    containers: sp.pod.spec.containers.map((c) => runtimeContainer(sp, c.name)),
  }
}

/** Replaces the runtime container `name` by a changed copy. */
export function setContainer(rt: RuntimePod, name: string, extra: Partial<RuntimeContainer>): void {
  rt.containers = rt.containers.map((c) => (c.name === name ? {...c, ...extra} : c))
}

export function dropContainer(rt: RuntimePod, name: string): void {
  rt.containers = rt.containers.filter((c) => c.name !== name)
}

/** An action as one short comparable string (reasons are checked separately). */
export function summary(a: PodAction): string {
  switch (a.type) {
    case 'PullImage':
      return `PullImage ${a.image} for ${a.containers.join(',')}`
    case 'KillPod':
      return 'KillPod'
    case 'KillContainer':
      return `KillContainer ${a.name}`
    case 'CreateSandbox':
      return `CreateSandbox attempt=${a.attempt}`
    case 'StartContainer':
      return `Start ${a.containerType} ${a.name} restart=${a.restartCount}`
  }
}
