// The fields a runtime must support, in `run` and `watch` over the fake CRI: a pod using one the
// runtime lacks fails with the field and what is missing, and nothing of it reaches the runtime;
// on a runtime reporting the feature it runs and its CRI requests carry the field. A run of plain
// pods never asks the runtime for its features.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {FakeRuntime} from '../support/fake-runtime.js'
import {FakeClock} from '../support/fake-clock.js'
import {createNode, type KubeNode} from '../../src/node/create-node.js'
import {loadStaticPods} from '../../src/manifest/load.js'
import {runOnce} from '../../src/loop/run-once.js'
import {EMPTY_OBJECT_STORE} from '../../src/manifest/object-store.js'
import {SyncLoop} from '../../src/loop/sync-loop.js'
import {silentLogger} from '../../src/util/logger.js'
import type {NodeInfo} from '../../src/util/node-info.js'
import type {ContainerConfig, PodSandboxConfig} from '../../src/cri/api.js'
import type {AppArmorHost} from '../../src/host/apparmor.js'
import {testNodeConfig} from '../support/node-config.js'
import {diskIO} from '../support/disk-io.js'

const IMAGE = 'localhost:5000/busybox:1.0'
const NODE: NodeInfo = {name: 'n1', maxPods: 110, capacity: {cpuMilli: 2000, memoryBytes: 8 * 2 ** 30, pods: 110}, labels: {'kubernetes.io/os': 'linux'}, os: 'linux'}

const HOST_USERS = 'spec:\n  hostUsers: false\n'
const STRICT = 'spec:\n  securityContext: {supplementalGroups: [5], supplementalGroupsPolicy: Strict}\n'
const RRO = (mode: string) => `spec:\n  volumes: [{name: d, emptyDir: {}}]\n  containers:\n  - name: main\n    image: "${IMAGE}"\n    volumeMounts: [{name: d, mountPath: /d, readOnly: true, recursiveReadOnly: ${mode}}]\n`
const APPARMOR = (profile: string) => `spec:\n  containers:\n  - name: main\n    image: "${IMAGE}"\n    securityContext: {appArmorProfile: ${profile}}\n`
const IMAGE_VOLUME = `spec:\n  volumes: [{name: m, image: {reference: "${IMAGE}"}}]\n  containers:\n  - name: main\n    image: "${IMAGE}"\n    volumeMounts: [{name: m, mountPath: /m}]\n`

describe('runtime-dependent fields', () => {
  let work: string
  let fake: FakeRuntime
  let node: KubeNode
  let appArmor: AppArmorHost

  async function pod(name: string, body: string) {
    const file = join(work, `${name}.yaml`)
    // A body without its own containers gets the plain one.
    const containers = body.includes('containers:') ? '' : `  containers:\n  - name: main\n    image: "${IMAGE}"\n`
    writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\n${body}${containers}`)
    return (await loadStaticPods([file], {nodeName: 'n1', io: diskIO})).pods[0]!
  }

  const run = async (name: string, body: string) => {
    const [r] = await runOnce(node.sync, [await pod(name, body)], {wait: 'running', timeoutMs: 10_000, parallelism: 1, admission: {node: NODE, running: []}}, {objects: EMPTY_OBJECT_STORE})
    return r!
  }

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-rtf-'))
    fake = new FakeRuntime({images: [IMAGE]})
    appArmor = {enabled: false, profiles: new Set()}
    node = await createNode(
      testNodeConfig(work),
      silentLogger,
      {runtime: fake, clock: new FakeClock(fake), appArmor: async () => appArmor},
    )
  })
  afterEach(() => rmSync(work, {recursive: true, force: true}))

  it('a plain pod runs without the runtime being asked for its features', async () => {
    expect((await run('plain', 'spec:\n')).outcome).toBe('done')
    expect(fake.callsOf('Status')).toEqual([])
  })

  it.each<[string, string, string, string]>([
    ['hostUsers: false', HOST_USERS, 'UserNamespacesNotSupported', 'spec.hostUsers: false needs user namespaces, which the runtime (fake 1.0.0) does not report supporting'],
    ['supplementalGroupsPolicy: Strict', STRICT, 'SupplementalGroupsPolicyNotSupported', 'spec.securityContext.supplementalGroupsPolicy: Strict needs the supplemental_groups_policy feature'],
    ['recursiveReadOnly: Enabled', RRO('Enabled'), 'RecursiveReadOnlyMountsNotSupported', 'spec.containers[0].volumeMounts[0].recursiveReadOnly: Enabled (volume "d") needs recursive read-only mounts'],
    ['appArmorProfile Localhost', APPARMOR('{type: Localhost, localhostProfile: k8s-deny-write}'), 'AppArmor', 'Cannot enforce AppArmor: spec.containers[0].securityContext.appArmorProfile asks for the Localhost profile "k8s-deny-write", but AppArmor is not enabled on the host'],
    ['an image volume', IMAGE_VOLUME, 'ImageVolumeNotSupported', 'spec.volumes[0].image: image volumes need a runtime that mounts OCI images through the CRI (containerd 2.1 or later), and the runtime is fake 1.0.0'],
  ])('run refuses %s on a runtime without it, creating nothing', async (_name, body, reason, says) => {
    const r = await run('p', body)
    expect(r.outcome).toBe('failed')
    expect(r.status).toMatchObject({phase: 'Failed', reason})
    expect(r.status.message).toContain(says)
    expect(r.reason).toContain(says)
    expect(fake.mutatingCalls()).toEqual([])
    expect(fake.callsOf('Status')).toHaveLength(1)
  })

  it('recursiveReadOnly: IfPossible and appArmorProfile Unconfined run on a runtime without the features', async () => {
    expect((await run('rro', RRO('IfPossible'))).outcome).toBe('done')
    const [mount] = (fake.callsOf('CreateContainer')[0]!.args[1] as ContainerConfig).mounts
    expect(mount).toMatchObject({readonly: true})
    expect(mount?.recursiveReadOnly).toBeUndefined()
    expect((await run('aa', APPARMOR('{type: Unconfined}'))).outcome).toBe('done')
    expect((fake.callsOf('CreateContainer')[1]!.args[1] as ContainerConfig).linux?.securityContext).toMatchObject({
      apparmor: {profileType: 'Unconfined'},
      apparmorProfile: 'unconfined',
    })
    // One read of the features serves the whole process.
    expect(fake.callsOf('Status')).toHaveLength(1)
  })

  it('on a runtime and host reporting every feature, the pods run and the CRI requests carry the fields', async () => {
    fake.features = {handlers: [{name: '', recursiveReadOnlyMounts: true, userNamespaces: true}], supplementalGroupsPolicy: true}
    appArmor = {enabled: true, profiles: new Set(['k8s-deny-write'])}
    expect((await run('strict', STRICT)).outcome).toBe('done')
    expect((fake.callsOf('RunPodSandbox')[0]!.args[0] as PodSandboxConfig).linux?.securityContext?.supplementalGroupsPolicy).toBe('Strict')
    expect((await run('rro', RRO('IfPossible'))).outcome).toBe('done')
    expect((fake.callsOf('CreateContainer')[1]!.args[1] as ContainerConfig).mounts[0]).toMatchObject({readonly: true, recursiveReadOnly: true})
    expect((await run('aa', APPARMOR('{type: Localhost, localhostProfile: k8s-deny-write}'))).outcome).toBe('done')
    expect((fake.callsOf('CreateContainer')[2]!.args[1] as ContainerConfig).linux?.securityContext).toMatchObject({
      apparmor: {profileType: 'Localhost', localhostRef: 'k8s-deny-write'},
      apparmorProfile: 'localhost/k8s-deny-write',
    })
    const missing = await run('other', APPARMOR('{type: Localhost, localhostProfile: not-loaded}'))
    expect(missing.status).toMatchObject({phase: 'Failed', reason: 'AppArmor'})
    expect(missing.status.message).toContain('"not-loaded", which is not loaded on the host')
  })

  it('watch refuses such a pod with its reason, creating nothing, and runs it once an edit drops the field', async () => {
    const loop = new SyncLoop({sync: node.sync, logger: silentLogger, clock: node.clock, sourcesReady: () => true, objects: () => EMPTY_OBJECT_STORE, node: NODE})
    loop.handleUpdates([{op: 'ADD', pods: [await pod('p', HOST_USERS)]}])
    await loop.idle()
    expect(loop.statuses()[0]!.status).toMatchObject({phase: 'Failed', reason: 'UserNamespacesNotSupported'})
    expect(fake.mutatingCalls()).toEqual([])
    loop.handleUpdates([{op: 'UPDATE', pods: [await pod('p', 'spec:\n')]}])
    await loop.idle()
    expect(fake.callsOf('StartContainer')).toHaveLength(1)
    await loop.stop()
  })

  it('watch checks a pod against the runtime\'s features when it is added or edited, not at every sync', async () => {
    fake.features = {handlers: [{name: '', recursiveReadOnlyMounts: false, userNamespaces: true}], supplementalGroupsPolicy: false}
    const load = node.sync.deps.runtimeSupport!
    let checks = 0
    const runtimeSupport = () => {
      checks += 1
      return load()
    }
    const sync = {...node.sync, deps: {...node.sync.deps, runtimeSupport}}
    const loop = new SyncLoop({sync, logger: silentLogger, clock: node.clock, sourcesReady: () => true, objects: () => EMPTY_OBJECT_STORE, node: NODE}, {random: () => 0})
    loop.handleUpdates([{op: 'ADD', pods: [await pod('p', HOST_USERS)]}])
    await loop.idle()
    expect(fake.callsOf('StartContainer')).toHaveLength(1)
    expect(checks).toBe(1)
    for (let i = 0; i < 3; i++) {
      ;(node.clock as FakeClock).advance(120_000)
      loop.tick()
      await loop.idle()
    }
    expect(checks).toBe(1)
    loop.handleUpdates([{op: 'UPDATE', pods: [await pod('p', HOST_USERS.replace('spec:\n', 'spec:\n  terminationGracePeriodSeconds: 1\n'))]}])
    await loop.idle()
    expect(checks).toBe(2)
    await loop.stop()
  })

  it('watch stops a running pod that an edit gives a field the runtime lacks', async () => {
    const loop = new SyncLoop({sync: node.sync, logger: silentLogger, clock: node.clock, sourcesReady: () => true, objects: () => EMPTY_OBJECT_STORE, node: NODE})
    loop.handleUpdates([{op: 'ADD', pods: [await pod('p', 'spec:\n')]}])
    await loop.idle()
    expect(fake.callsOf('StartContainer')).toHaveLength(1)
    loop.handleUpdates([{op: 'UPDATE', pods: [await pod('p', HOST_USERS)]}])
    await loop.idle()
    expect(loop.statuses()[0]!.status).toMatchObject({phase: 'Failed', reason: 'UserNamespacesNotSupported'})
    expect(fake.callsOf('StopPodSandbox').length).toBeGreaterThan(0)
    expect(fake.callsOf('RunPodSandbox')).toHaveLength(1)
    await loop.stop()
  })
})
