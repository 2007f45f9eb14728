// The emptyDir sizeLimit rule over the fake CRI and a real root dir: every static pod is critical,
// and the kubelet never evicts a critical pod, so a pod whose emptyDir on disk outgrows its limit
// keeps running under `watch` and `run`, and the excess shows as a Warning event.
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {FakeRuntime} from '../support/fake-runtime.js'
import {FakeClock} from '../support/fake-clock.js'
import {createNode, type KubeNode} from '../../src/node/create-node.js'
import {loadStaticPods} from '../../src/manifest/load.js'
import {SyncLoop} from '../../src/loop/sync-loop.js'
import {runOnce} from '../../src/loop/run-once.js'
import {EMPTY_OBJECT_STORE} from '../../src/manifest/object-store.js'
import {emptyDirPath} from '../../src/kuberuntime/naming.js'
import {silentLogger} from '../../src/util/logger.js'
import type {StaticPod} from '../../src/api/types.js'
import {testNodeConfig} from '../support/node-config.js'
import {diskIO} from '../support/disk-io.js'

const IMAGE = 'localhost:5000/busybox:1.0'
const MESSAGE = 'Usage of EmptyDir volume "cache" exceeds the limit "1Mi".'

describe('emptyDir sizeLimit over the fake CRI: static pods are never evicted', () => {
  let work: string
  let fake: FakeRuntime
  let clock: FakeClock
  let node: KubeNode
  let loop: SyncLoop

  async function staticPod(name: string): Promise<StaticPod> {
    const file = join(work, `${name}.yaml`)
    writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n  volumes: [{name: cache, emptyDir: {sizeLimit: 1Mi}}]\n  containers: [{name: main, image: "${IMAGE}", volumeMounts: [{name: cache, mountPath: /cache}]}]\n`)
    return (await loadStaticPods([file], {nodeName: 'n1', io: diskIO})).pods[0]!
  }
  const fill = (sp: StaticPod, bytes: number): void => writeFileSync(join(emptyDirPath(node.config.rootDir, sp.pod.metadata.uid, 'cache'), 'data'), Buffer.alloc(bytes, 1))
  const states = (): string[] => [...fake.containers.values()].map((c) => c.status.state)

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-evict-'))
    fake = new FakeRuntime({images: [IMAGE]})
    clock = new FakeClock(fake)
    node = await createNode(
      testNodeConfig(work),
      silentLogger,
      {runtime: fake, clock},
    )
    loop = new SyncLoop({sync: node.sync, logger: silentLogger, clock, sourcesReady: () => true, objects: () => EMPTY_OBJECT_STORE}, {random: () => 0})
  })
  afterEach(async () => {
    await loop.stop()
    rmSync(work, {recursive: true, force: true})
  })

  /** The Warning events emitted from now on, as `reason: message`. */
  function warnings(): string[] {
    const seen: string[] = []
    const emit = node.events.emit.bind(node.events)
    vi.spyOn(node.events, 'emit').mockImplementation((object, type, reason, message) => {
      if (type === 'Warning') seen.push(`${reason}: ${message}`)
      return emit(object, type, reason, message)
    })
    return seen
  }

  it('watch: a pod over its limit keeps running, Running, with a Warning event; nothing is stopped', async () => {
    const seen = warnings()
    const sp = await staticPod('cache')
    loop.handleUpdates([{op: 'ADD', pods: [sp]}])
    await loop.idle()
    fill(sp, 512 * 1024)
    await loop.housekeeping.measureEmptyDirs()
    await loop.idle()
    expect(seen).toEqual([])

    fill(sp, 3 * 1024 * 1024)
    await loop.housekeeping.measureEmptyDirs()
    await loop.idle()
    expect(states()).toEqual(['CONTAINER_RUNNING'])
    expect(fake.mutatingCalls().filter((c) => c.startsWith('Stop'))).toEqual([])
    expect(seen).toEqual([`ExceededEmptyDirLimit: ${MESSAGE} The pod is not evicted: a static pod is critical.`])
    clock.advance(120_000)
    loop.tick()
    await loop.idle()
    expect(loop.statuses()[0]!.status?.phase).toBe('Running')
  })

  it('watch: a finished pod keeps its phase, whatever its emptyDir holds', async () => {
    const sp = await staticPod('done')
    sp.pod.spec.restartPolicy = 'Never'
    loop.handleUpdates([{op: 'ADD', pods: [sp]}])
    await loop.idle()
    const [id] = [...fake.containers.keys()]
    fake.exitContainer(id!, 0)
    loop.handleLifecycleEvents([{uid: sp.pod.metadata.uid, type: 'ContainerDied', containerId: id!}])
    await loop.idle()
    expect(loop.statuses()[0]!.status?.phase).toBe('Succeeded')
    fill(sp, 3 * 1024 * 1024)
    await loop.housekeeping.measureEmptyDirs()
    await loop.idle()
    expect(loop.statuses()[0]!.status?.phase).toBe('Succeeded')
  })

  it('run: a pod over its limit while the run waits is reported, not failed', async () => {
    const seen = warnings()
    const sp = await staticPod('job')
    // The emptyDir is already full when the pod starts (an emptyDir outlives its containers).
    mkdirSync(emptyDirPath(node.config.rootDir, sp.pod.metadata.uid, 'cache'), {recursive: true})
    fill(sp, 3 * 1024 * 1024)
    const [r] = await runOnce(node.sync, [sp], {wait: 'running', timeoutMs: 60_000, stableForMs: 5_000, parallelism: 1, pollMs: 100}, {objects: EMPTY_OBJECT_STORE})
    // It reached its goal as any pod, and ran all along.
    expect(r!.outcome).toBe('done')
    expect(r!.status.phase).toBe('Running')
    expect(states()).toEqual(['CONTAINER_RUNNING'])
    expect(seen.filter((w) => w.startsWith('ExceededEmptyDirLimit: ')).length).toBeGreaterThan(0)
  })
})
