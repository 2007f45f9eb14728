import {describe, expect, it} from 'vitest'
import type {Container, ContainerStatus, PodSandbox} from '../../../src/cri/api.js'
import {buildRuntimePods} from '../../../src/kuberuntime/runtime-status.js'

const MS = 1_000_000 // nanoseconds per millisecond

function sandbox(id: string, uid: string, createdMs: number, more: Partial<PodSandbox> = {}, labels: Record<string, string> = {}): PodSandbox {
  return {
    id,
    metadata: {name: `pod-${uid}-node1`, namespace: 'default', uid, attempt: 0},
    state: 'SANDBOX_READY',
    createdAt: createdMs * MS,
    labels: {
      'io.kubernetes.pod.name': `pod-${uid}-node1`,
      'io.kubernetes.pod.namespace': 'default',
      'io.kubernetes.pod.uid': uid,
      'kube-node.io/managed': 'true',
      'kube-node.io/manifest-name': `pod-${uid}`,
      ...labels,
    },
    annotations: {'kube-node.io/sandbox-hash': `sh-${uid}`, 'kube-node.io/hash-version': '1'},
    runtimeHandler: '',
    ...more,
  }
}

function container(id: string, sandboxId: string, name: string, createdMs: number, more: Partial<Container> = {}): Container {
  return {
    id,
    podSandboxId: sandboxId,
    metadata: {name, attempt: 0},
    image: {image: 'nginx:1.27'},
    imageRef: 'sha256:abc',
    state: 'CONTAINER_RUNNING',
    createdAt: createdMs * MS,
    labels: {'io.kubernetes.container.name': name, 'kube-node.io/managed': 'true'},
    annotations: {'io.kubernetes.container.hash': `h-${name}`},
    ...more,
  }
}

const none = {statuses: new Map<string, ContainerStatus>(), sandboxIps: new Map<string, string>()}

describe('buildRuntimePods', () => {
  it('groups sandboxes and containers of two pods by uid', () => {
    const pods = buildRuntimePods({
      ...none,
      sandboxes: [sandbox('s-a', 'a', 100), sandbox('s-b', 'b', 200)],
      containers: [container('c-a', 's-a', 'app', 110), container('c-b1', 's-b', 'web', 210), container('c-b2', 's-b', 'log', 220)],
    })
    expect(pods.map((p) => [p.uid, p.name, p.namespace, p.manifestName])).toEqual([
      ['a', 'pod-a-node1', 'default', 'pod-a'],
      ['b', 'pod-b-node1', 'default', 'pod-b'],
    ])
    expect(pods[0]!.containers.map((c) => c.id)).toEqual(['c-a'])
    expect(pods[1]!.containers.map((c) => c.id)).toEqual(['c-b2', 'c-b1'])
  })

  it('ignores sandboxes without the managed label or uid, and containers of sandboxes not ours', () => {
    const foreign = sandbox('s-x', 'x', 100, {}, {'kube-node.io/managed': 'false'})
    const unlabelled = sandbox('s-y', 'y', 100)
    delete unlabelled.labels['kube-node.io/managed']
    const noUid = sandbox('s-z', 'z', 100)
    delete noUid.labels['io.kubernetes.pod.uid']
    const pods = buildRuntimePods({
      ...none,
      sandboxes: [foreign, unlabelled, noUid, sandbox('s-a', 'a', 100)],
      containers: [container('c-x', 's-x', 'app', 110), container('c-gone', 's-missing', 'app', 110), container('c-a', 's-a', 'app', 110)],
    })
    expect(pods.map((p) => p.uid)).toEqual(['a'])
    expect(pods[0]!.containers.map((c) => c.id)).toEqual(['c-a'])
  })

  it('orders sandboxes and containers newest first and names the pod from the newest sandbox', () => {
    const old = sandbox('s-old', 'a', 100, {state: 'SANDBOX_NOTREADY', metadata: {name: 'x', namespace: 'default', uid: 'a', attempt: 0}}, {'kube-node.io/manifest-name': 'old-name'})
    const current = sandbox('s-new', 'a', 500, {metadata: {name: 'x', namespace: 'default', uid: 'a', attempt: 1}})
    const pods = buildRuntimePods({
      ...none,
      sandboxes: [old, current],
      containers: [container('c1', 's-old', 'app', 150, {state: 'CONTAINER_EXITED'}), container('c2', 's-new', 'app', 550)],
    })
    expect(pods).toHaveLength(1)
    const pod = pods[0]!
    expect(pod.manifestName).toBe('pod-a')
    expect(pod.sandboxes.map((s) => [s.id, s.state, s.attempt, s.createdAt])).toEqual([
      ['s-new', 'ready', 1, 500],
      ['s-old', 'notready', 0, 100],
    ])
    expect(pod.containers.map((c) => [c.id, c.state])).toEqual([
      ['c2', 'running'],
      ['c1', 'exited'],
    ])
  })

  it('maps sandbox hash, hash version and IP', () => {
    const [pod] = buildRuntimePods({...none, sandboxes: [sandbox('s-a', 'a', 100)], containers: [], sandboxIps: new Map([['s-a', '10.0.0.5']])})
    expect(pod!.sandboxes[0]).toMatchObject({hash: 'sh-a', hashVersion: '1', ip: '10.0.0.5'})
  })

  it('falls back to the pod name when the manifest-name label is missing', () => {
    const s = sandbox('s-a', 'a', 100)
    delete s.labels['kube-node.io/manifest-name']
    expect(buildRuntimePods({...none, sandboxes: [s], containers: []})[0]!.manifestName).toBe('pod-a-node1')
  })

  it('maps a container from its labels, annotations and status', () => {
    const c = container('c1', 's-a', 'app', 110, {
      metadata: {name: 'app', attempt: 4},
      labels: {'kube-node.io/container-type': 'init', 'kube-node.io/managed': 'true'},
      annotations: {
        'io.kubernetes.container.hash': 'abc123',
        'kube-node.io/hash-version': '1',
        'io.kubernetes.container.restartCount': '4',
        'io.kubernetes.pod.terminationGracePeriod': '45',
      },
    })
    const status: ContainerStatus = {
      id: 'c1',
      metadata: {name: 'app', attempt: 4},
      state: 'CONTAINER_EXITED',
      createdAt: 110 * MS,
      startedAt: 120 * MS + 999,
      finishedAt: 130 * MS,
      exitCode: 137,
      image: {image: 'docker.io/library/nginx:1.27'},
      imageRef: 'docker.io/library/nginx@sha256:def',
      reason: 'OOMKilled',
      message: 'out of memory',
      labels: {},
      annotations: {},
      mounts: [],
      logPath: '/var/log/pods/default_pod_a/app/4.log',
    }
    const [pod] = buildRuntimePods({...none, sandboxes: [sandbox('s-a', 'a', 100)], containers: [c], statuses: new Map([['c1', status]])})
    expect(pod!.containers[0]).toEqual({
      id: 'c1',
      sandboxId: 's-a',
      name: 'app',
      type: 'init',
      state: 'exited',
      restartCount: 4,
      hash: 'abc123',
      hashVersion: '1',
      createdAt: 110,
      startedAt: 120.000999,
      finishedAt: 130,
      exitCode: 137,
      reason: 'OOMKilled',
      message: 'out of memory',
      image: 'docker.io/library/nginx:1.27',
      imageRef: 'docker.io/library/nginx@sha256:def',
      logPath: '/var/log/pods/default_pod_a/app/4.log',
      terminationGracePeriodSeconds: 45,
    })
  })

  it('lists a container without status with zero times and the type defaulting to regular', () => {
    const c = container('c1', 's-a', 'app', 110, {state: 'CONTAINER_CREATED', metadata: {name: 'app', attempt: 2}})
    const [pod] = buildRuntimePods({...none, sandboxes: [sandbox('s-a', 'a', 100)], containers: [c]})
    expect(pod!.containers[0]).toMatchObject({
      type: 'regular',
      state: 'created',
      restartCount: 2,
      hash: 'h-app',
      createdAt: 110,
      startedAt: 0,
      finishedAt: 0,
      exitCode: 0,
      reason: '',
      logPath: '',
      image: 'nginx:1.27',
      imageRef: 'sha256:abc',
    })
    expect(pod!.containers[0]!.terminationGracePeriodSeconds).toBeUndefined()
    expect(pod!.containers[0]!.hashVersion).toBeUndefined()
  })

  it('maps CONTAINER_UNKNOWN to unknown', () => {
    const c = container('c1', 's-a', 'app', 110, {state: 'CONTAINER_UNKNOWN'})
    expect(buildRuntimePods({...none, sandboxes: [sandbox('s-a', 'a', 100)], containers: [c]})[0]!.containers[0]!.state).toBe('unknown')
  })
})
