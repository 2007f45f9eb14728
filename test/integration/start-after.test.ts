// Ordered bring-up (`kube-node.io/start-after`) over the fake CRI: `run` and the watch loop
// create a pod only once the pods it names are Ready; restarts are never held back; a bad
// reference is refused before anything runs.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {podManifest} from '../support/manifests.js'
import {FakeRuntime} from '../support/fake-runtime.js'
import {FakeClock} from '../support/fake-clock.js'
import {createNode, type KubeNode} from '../../src/node/create-node.js'
import {runPods} from '../../src/services/run.js'
import {planPods} from '../../src/services/plan.js'
import {loadStaticPods} from '../../src/manifest/load.js'
import {SyncLoop} from '../../src/loop/sync-loop.js'
import {EMPTY_OBJECT_STORE} from '../../src/manifest/object-store.js'
import {silentLogger} from '../../src/util/logger.js'
import {InvalidInputError} from '../../src/util/errors.js'
import type {PodSandboxConfig} from '../../src/cri/api.js'
import {testNodeConfig} from '../support/node-config.js'
import {podStatusText} from '../../src/cli/render/pod-row.js'
import {loadPod} from '../../src/node/pod-store.js'
import {diskIO} from '../support/disk-io.js'

const IMAGE = 'localhost:5000/busybox:latest'
const MISSING = 'localhost:5000/missing:1.0'

function pod(name: string, startAfter?: string, image = IMAGE, extra = ''): string {
  return podManifest(name, {image, extra, annotations: startAfter === undefined ? {} : {'kube-node.io/start-after': startAfter}})
}

// Fake time: every sleep advances the clock at once, and a held pod polls (sleeps) while the pods
// it waits for do real file I/O, so on a loaded machine its polling can run a minute of fake time
// out before they are Ready (a CI run saw 'web' time out at 60 s). An hour of fake time costs at
// most a few thousand quick polls.
const FAKE_DEADLINE_MS = 3_600_000

describe('start-after over the fake CRI', () => {
  let work: string
  let fake: FakeRuntime
  let clock: FakeClock
  let node: KubeNode

  function write(name: string, text: string): string {
    const p = join(work, name)
    writeFileSync(p, text)
    return p
  }

  /** The pods (manifest names) in the order their sandboxes were created, and each container start. */
  function creations(): string[] {
    const out: string[] = []
    const sandboxPod = new Map<string, string>()
    for (const c of fake.calls) {
      if (c.call === 'RunPodSandbox') out.push(`sandbox ${(c.args[0] as PodSandboxConfig).metadata.name}`)
      if (c.call === 'StartContainer') out.push(`start ${sandboxPod.get(String(c.args[0])) ?? podOfContainer(String(c.args[0]))}`)
    }
    return out
  }
  function podOfContainer(id: string): string {
    return fake.containers.get(id)?.status.labels['io.kubernetes.pod.name'] ?? id
  }

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-order-'))
    fake = new FakeRuntime({images: ['localhost:5000/pause:3.9'], pullable: [IMAGE]})
    clock = new FakeClock(fake)
    node = await createNode(
      testNodeConfig(work, {nodeName: 'node1'}),
      silentLogger,
      {runtime: fake, clock},
    )
  })

  afterEach(() => rmSync(work, {recursive: true, force: true}))

  it('run creates a pod only after the pods it starts after are Ready, even listed first', async () => {
    const files = [write('web.yaml', pod('web', 'api, etcd')), write('api.yaml', pod('api', 'etcd')), write('etcd.yaml', pod('etcd'))]
    const results = await runPods(node, files, {wait: 'running', timeoutMs: FAKE_DEADLINE_MS})
    // Results keep the order of the arguments; every pod reached its goal.
    expect(results.map((r) => [r.sp.manifestName, r.outcome])).toEqual([['web', 'done'], ['api', 'done'], ['etcd', 'done']])
    expect(creations()).toEqual(['sandbox etcd-node1', 'start etcd-node1', 'sandbox api-node1', 'start api-node1', 'sandbox web-node1', 'start web-node1'])
  })

  it('run with one worker and the dependent first does not deadlock', async () => {
    node.config.parallelism = 1
    const results = await runPods(node, [write('api.yaml', pod('api', 'etcd')), write('etcd.yaml', pod('etcd'))], {wait: 'none', timeoutMs: FAKE_DEADLINE_MS})
    expect(results.map((r) => r.outcome)).toEqual(['done', 'done'])
    expect(creations()).toEqual(['sandbox etcd-node1', 'start etcd-node1', 'sandbox api-node1', 'start api-node1'])
  })

  it('run fails a pod at once when a pod it starts after fails, and creates nothing of it', async () => {
    const neverPulled = `${MISSING}\n    imagePullPolicy: Never`
    const results = await runPods(node, [write('etcd.yaml', pod('etcd', undefined, neverPulled)), write('api.yaml', pod('api', 'etcd'))], {wait: 'running', timeoutMs: FAKE_DEADLINE_MS})
    const api = results.find((r) => r.sp.manifestName === 'api')!
    expect(api.outcome).toBe('failed')
    expect(api.reason).toMatch(/^not started: it starts after pod "etcd", which will not become Ready \(failed: container "main" is waiting: ErrImageNeverPull/)
    expect(creations()).not.toContain('sandbox api-node1')
    expect(api.status.message).toMatch(/not started/)
  })

  it('a pod that already has a sandbox is not held back by a pod that is not Ready', async () => {
    await runPods(node, [write('etcd.yaml', pod('etcd')), write('api.yaml', pod('api', 'etcd'))], {wait: 'running', timeoutMs: FAKE_DEADLINE_MS})
    // etcd now cannot start (its image is gone); api's container died and must restart anyway.
    const apiContainer = [...fake.containers.entries()].find(([, c]) => c.status.labels['io.kubernetes.pod.name'] === 'api-node1')![0]
    fake.exitContainer(apiContainer, 1)
    const results = await runPods(node, [write('etcd.yaml', pod('etcd', undefined, MISSING)), write('api.yaml', pod('api', 'etcd'))], {wait: 'running', timeoutMs: 2_000})
    const api = results.find((r) => r.sp.manifestName === 'api')!
    expect(api.outcome).toBe('done')
    expect(api.status.containerStatuses?.[0]?.restartCount).toBe(1)
  })

  it('plan lists pods in start order and says what each waits for', async () => {
    const plans = await planPods(node, [write('api.yaml', pod('api', 'etcd')), write('etcd.yaml', pod('etcd'))])
    expect(plans.map((p) => [p.sp.manifestName, p.waitsFor])).toEqual([['etcd', undefined], ['api', ['etcd']]])
    expect(fake.mutatingCalls()).toEqual([])
  })

  it.each([
    {name: 'unknown name', files: {'api.yaml': pod('api', 'etcd')}, message: /api\.yaml, document 0, field metadata\.annotations\["kube-node\.io\/start-after"\]: names "etcd", which no manifest defines/},
    {name: 'self-reference', files: {'api.yaml': pod('api', 'api')}, message: /api\.yaml, document 0, field metadata\.annotations\["kube-node\.io\/start-after"\]: pod "api" names itself/},
    {name: 'cycle', files: {'a.yaml': pod('a', 'b'), 'b.yaml': pod('b', 'a')}, message: /a\.yaml, document 0, field metadata\.annotations\["kube-node\.io\/start-after"\]: forms a cycle: a → b → a/},
    {name: 'bad name', files: {'a.yaml': pod('a', 'B_')}, message: /a\.yaml, document 0, field metadata\.annotations\["kube-node\.io\/start-after"\]: names pod "B_", which is not a valid pod name/},
  ])('a $name is invalid input, and nothing runs', async ({files, message}) => {
    const paths = Object.entries(files).map(([n, t]) => write(n, t))
    const err = await runPods(node, paths, {wait: 'running', timeoutMs: 5_000}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(InvalidInputError)
    expect((err as Error).message).toMatch(message)
    // The runtime is only read (while the manifests load): nothing of any pod is created.
    expect(fake.mutatingCalls()).toEqual([])
  })

  describe('watch loop', () => {
    let loop: SyncLoop
    afterEach(async () => loop.stop())

    it('holds a pod until the pod it starts after is Ready, then creates it without waiting for a resync', async () => {
      fake.pullable.clear()
      loop = new SyncLoop({sync: node.sync, logger: silentLogger, clock, sourcesReady: () => true, objects: () => EMPTY_OBJECT_STORE}, {random: () => 0})
      const {pods} = await loadStaticPods([write('api.yaml', pod('api', 'etcd')), write('etcd.yaml', pod('etcd'))], {nodeName: 'node1', io: diskIO})
      loop.handleUpdates([{op: 'ADD', pods}])
      await loop.idle()
      // etcd cannot pull its image: api is held, with a status that says why.
      expect(creations()).toEqual(['sandbox etcd-node1'])
      const api = loop.statuses().find((s) => s.sp.manifestName === 'api')!
      expect(api.status?.message).toMatch(/^waits for pod "etcd" to be Ready \(start-after\)/)
      expect(api.status?.phase).toBe('Pending')
      // Its own STATUS, not a ContainerCreating that looks as if the runtime were at work …
      expect(api.status?.reason).toBe('StartAfter')
      expect(api.status?.containerStatuses?.[0]?.state?.waiting).toEqual({reason: 'StartAfter', message: api.status?.message})
      expect(podStatusText({spec: api.sp.pod.spec, status: api.status!})).toBe('StartAfter')
      // … and its manifest recorded, so readers show its annotations and spec.
      expect((await loadPod(node.config.rootDir, api.sp.pod.metadata.uid))?.pod.metadata.annotations?.['kube-node.io/start-after']).toBe('etcd')

      // The image appears; etcd's back-off ends; once etcd is Ready, api is created at once.
      fake.addImage(IMAGE)
      clock.advance(11_000)
      loop.tick()
      await loop.idle()
      await loop.idle()
      expect(creations()).toEqual(['sandbox etcd-node1', 'start etcd-node1', 'sandbox api-node1', 'start api-node1'])
    })
  })
})
