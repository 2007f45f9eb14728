// What the executor tells its SyncMetrics: the kubelet's started pods and containers (with the
// failure code) and image pulls, over the fake CRI.
import {describe, expect, it} from 'vitest'
import {executePlan, type ExecutorDeps} from '../../../src/apply/execute-plan.js'
import {PodDirs} from '../../../src/store/pod-dir.js'
import type {SyncMetrics} from '../../../src/apply/sync-metrics.js'
import type {PodActions, PodAction} from '../../../src/decide/actions.js'
import {EMPTY_OBJECT_STORE} from '../../../src/manifest/object-store.js'
import {silentLogger} from '../../../src/util/logger.js'
import {FakeRuntime} from '../../support/fake-runtime.js'
import {FakeClock} from '../../support/fake-clock.js'
import {FakeHostFs} from '../../support/fake-host-fs.js'
import {HOST_DNS, makeContainer, makeStaticPod, UID} from '../../support/pods.js'

function recorder(): SyncMetrics & {seen: string[]} {
  const seen: string[] = []
  return {
    seen,
    podStarted: (failed) => void seen.push(failed ? 'pod failed' : 'pod'),
    containerStarted: (type, code) => void seen.push(code ? `${type} ${code}` : type),
    imagePulled: (_s, size) => void seen.push(`pulled ${size}`),
  }
}

function setup(): {fake: FakeRuntime; metrics: ReturnType<typeof recorder>; deps: ExecutorDeps} {
  const fake = new FakeRuntime({images: ['docker.io/library/nginx:1.27'], pullable: ['docker.io/library/redis:7']})
  const metrics = recorder()
  const fs = new FakeHostFs()
  const deps: ExecutorDeps = {
    runtime: fake, images: fake, fs, logger: silentLogger, clock: new FakeClock(fake), rootDir: '/var/lib/kube-node', podDirs: new PodDirs(fs, '/var/lib/kube-node'),
    podLogsDir: '/var/log/pods', hostDns: HOST_DNS, clusterDNS: [], clusterDomain: 'cluster.local', metrics,
  }
  return {fake, metrics, deps}
}

const sp = makeStaticPod((p) => {
  p.spec.initContainers = [makeContainer({name: 'init', image: 'nginx:1.27'})]
  p.spec.containers = [makeContainer({name: 'app', image: 'redis:7'})]
})
const plan = (actions: PodAction[]): PodActions => ({uid: UID, name: 'web-node1', namespace: 'default', sandboxId: '', actions, blocked: [], terminal: false})
const actions: PodAction[] = [
  {type: 'PullImage', image: 'redis:7', containers: ['app'], reason: 'not present'},
  {type: 'CreateSandbox', attempt: 0, reason: 'no sandbox'},
  {type: 'StartContainer', name: 'init', containerType: 'init', restartCount: 0, reason: 'not started'},
  {type: 'StartContainer', name: 'app', containerType: 'regular', restartCount: 0, reason: 'not started'},
]

describe('sync metrics', () => {
  it('counts the pull (with the image size), the sandbox and each container start', async () => {
    const {fake, metrics, deps} = setup()
    await executePlan(deps, sp, plan(actions), undefined, {objects: EMPTY_OBJECT_STORE})
    const size = (await fake.imageStatus({image: 'redis:7'}))?.size ?? -1
    expect(metrics.seen).toEqual([`pulled ${size}`, 'pod', 'init', 'regular'])
  })

  it('counts a failed pull as a failed start of its container, as the kubelet does, and a refused sandbox', async () => {
    const {fake, metrics, deps} = setup()
    fake.failNext('PullImage', 'Unavailable')
    fake.failNext('RunPodSandbox')
    await executePlan(deps, sp, plan(actions), undefined, {objects: EMPTY_OBJECT_STORE})
    expect(metrics.seen).toEqual(['regular ErrImagePull', 'pod failed'])
  })

  it('counts a container the runtime would not create, with its waiting reason as the code', async () => {
    const {fake, metrics, deps} = setup()
    fake.failNext('CreateContainer')
    await executePlan(deps, sp, plan(actions.slice(1, 3)), undefined, {objects: EMPTY_OBJECT_STORE})
    expect(metrics.seen).toEqual(['pod', 'init CreateContainerError'])
  })
})
