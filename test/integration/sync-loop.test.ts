// The watch loop over the fake CRI: updates from sources, lifecycle events and housekeeping turn
// into the right runtime changes.
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {basename, dirname, join} from 'node:path'
import {FakeRuntime} from '../support/fake-runtime.js'
import {FakeClock} from '../support/fake-clock.js'
import {createNode, type KubeNode} from '../../src/node/create-node.js'
import {loadStaticPods} from '../../src/manifest/load.js'
import {SyncLoop} from '../../src/loop/sync-loop.js'
import {EMPTY_OBJECT_STORE} from '../../src/manifest/object-store.js'
import {silentLogger} from '../../src/util/logger.js'
import type {StaticPod} from '../../src/api/types.js'
import {testNodeConfig} from '../support/node-config.js'
import {diskIO} from '../support/disk-io.js'

const IMAGE = 'localhost:5000/busybox:1.0'

describe('SyncLoop over the fake CRI', () => {
  let work: string
  let fake: FakeRuntime
  let clock: FakeClock
  let node: KubeNode
  let ready: boolean
  let loop: SyncLoop

  async function staticPod(name: string, image = IMAGE): Promise<StaticPod> {
    const file = join(work, `${name}.yaml`)
    writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n  containers: [{name: main, image: "${image}"}]\n`)
    return (await loadStaticPods([file], {nodeName: 'n1', io: diskIO})).pods[0]!
  }

  function running(): string[] {
    return [...fake.containers.values()].filter((c) => c.status.state === 'CONTAINER_RUNNING').map((c) => `${c.status.labels['io.kubernetes.pod.name']}/${c.status.image.image}`)
  }

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-loop-'))
    fake = new FakeRuntime({images: [IMAGE, 'localhost:5000/busybox:2.0']})
    clock = new FakeClock(fake)
    ready = false
    node = await createNode(
      testNodeConfig(work),
      silentLogger,
      {runtime: fake, clock},
    )
    loop = new SyncLoop({sync: node.sync, logger: silentLogger, clock, sourcesReady: () => ready, objects: () => EMPTY_OBJECT_STORE}, {random: () => 0})
  })

  afterEach(async () => {
    await loop.stop()
    rmSync(work, {recursive: true, force: true})
  })

  it('starts an added pod, restarts its container when it dies, and replaces it on an image edit', async () => {
    const web = await staticPod('web')
    loop.handleUpdates([{op: 'ADD', pods: [web]}])
    await loop.idle()
    expect(running()).toEqual([`web-n1/${IMAGE}`])

    const [id] = [...fake.containers.keys()]
    fake.exitContainer(id!, 137)
    loop.handleLifecycleEvents([{uid: web.pod.metadata.uid, type: 'ContainerDied', containerId: id!}])
    await loop.idle()
    expect(running()).toEqual([`web-n1/${IMAGE}`])
    expect(loop.statuses()[0]!.status?.containerStatuses?.[0]?.restartCount).toBe(1)

    const sandboxes = [...fake.sandboxes.keys()]
    loop.handleUpdates([{op: 'UPDATE', pods: [await staticPod('web', 'localhost:5000/busybox:2.0')]}])
    await loop.idle()
    expect(running()).toEqual(['web-n1/localhost:5000/busybox:2.0'])
    expect([...fake.sandboxes.keys()]).toEqual(sandboxes)
  })

  /** The running container of `sp` exits with code 1 after running `ranMs`, and the loop hears of it. */
  async function crash(sp: StaticPod, ranMs = 0): Promise<void> {
    clock.advance(ranMs)
    const live = [...fake.containers.entries()].find(([, c]) => c.status.state === 'CONTAINER_RUNNING')![0]
    fake.exitContainer(live, 1)
    loop.handleLifecycleEvents([{uid: sp.pod.metadata.uid, type: 'ContainerDied', containerId: live}])
    await loop.idle()
  }

  /** Nothing runs while the 10 s back-off lasts (CrashLoopBackOff); the tick after it restarts. */
  async function backsOffThenRestarts(): Promise<void> {
    expect(running()).toEqual([])
    expect(loop.statuses()[0]!.status?.containerStatuses?.[0]?.state?.waiting?.reason).toBe('CrashLoopBackOff')
    clock.advance(10_000)
    loop.tick()
    await loop.idle()
    expect(running()).toEqual([`web-n1/${IMAGE}`])
  }

  it('a crash-looping container waits for its back-off, then the tick restarts it', async () => {
    const web = await staticPod('web')
    loop.handleUpdates([{op: 'ADD', pods: [web]}])
    await loop.idle()
    // The second death falls inside the 10s back-off armed by the first restart.
    await crash(web)
    await crash(web)
    await backsOffThenRestarts()
  })

  it('back-off counts from the exit: a container that ran a minute before each crash still backs off', async () => {
    const web = await staticPod('web')
    loop.handleUpdates([{op: 'ADD', pods: [web]}])
    await loop.idle()
    // The first crash restarts at once, as in the kubelet.
    await crash(web, 60_000)
    expect(running()).toEqual([`web-n1/${IMAGE}`])
    // The second, a minute later, waits 10 s from its exit (counted from the restart, it would not).
    await crash(web, 60_000)
    await backsOffThenRestarts()
  })

  it('a container that cannot start (a wrong command) is backed off like a crash: 10 s, 20 s, 40 s between attempts', async () => {
    fake.failStarts()
    const web = await staticPod('web')
    loop.handleUpdates([{op: 'ADD', pods: [web]}])
    await loop.idle()
    const times = [clock.now()]
    expect(fake.callsOf('StartContainer')).toHaveLength(1)
    // Two minutes of lifecycle events and ticks, each second, as PLEG and the resync would bring.
    for (let s = 0; s < 120; s++) {
      clock.advance(1000)
      const dead = [...fake.containers.keys()].at(-1)!
      loop.handleLifecycleEvents([{uid: web.pod.metadata.uid, type: 'ContainerDied', containerId: dead}])
      loop.tick()
      await loop.idle()
      if (fake.callsOf('StartContainer').length > times.length) times.push(clock.now())
    }
    const gaps = times.slice(1).map((t, i) => Math.round((t - times[i]!) / 1000))
    // The first retry comes at once (the kubelet's), then one attempt per back-off step.
    expect(gaps).toEqual([1, 10, 20, 40])
    expect(loop.statuses()[0]!.status?.containerStatuses?.[0]?.state?.waiting?.reason).toMatch(/CrashLoopBackOff|RunContainerError/)
  })

  describe('an upgrade as kubeadm and monitoring see it', () => {
    const MISSING = 'localhost:5000/busybox:9.9'
    const pulls = (image: string): number => fake.callsOf('PullImage').filter((c) => JSON.stringify(c.args).includes(image)).length
    const statusOf = () => loop.statuses()[0]!.status!

    it('an edit to an image that cannot be pulled keeps the old container serving, stably, and the pod is not Ready; pulls back off per image', async () => {
      const web = await staticPod('web')
      loop.handleUpdates([{op: 'ADD', pods: [web]}])
      await loop.idle()
      const [oldId] = [...fake.containers.keys()]
      loop.handleUpdates([{op: 'UPDATE', pods: [await staticPod('web', MISSING)]}])
      await loop.idle()
      expect(pulls(MISSING)).toBe(1)
      expect(statusOf().containerStatuses?.[0]?.state?.waiting?.reason).toBe('ErrImagePull')
      const seen: string[] = []
      // Two and a half minutes of syncs every second: pulls at 10 s, 20 s, 40 s, 80 s from each failure.
      for (let s = 1; s <= 150; s++) {
        clock.advance(1000)
        loop.tick()
        await loop.idle()
        const cs = statusOf().containerStatuses?.[0]
        seen.push(cs?.state?.waiting?.reason ?? 'running')
        // The old container is never stopped, at any sync of the back-off.
        expect(fake.containers.get(oldId!)?.status.state).toBe('CONTAINER_RUNNING')
        expect(statusOf().conditions?.find((c) => c.type === 'Ready')?.status).toBe('False')
        expect(cs?.ready).toBe(false)
      }
      expect(pulls(MISSING)).toBe(5)
      expect(new Set(seen)).toEqual(new Set(['ErrImagePull', 'ImagePullBackOff']))
      expect(fake.callsOf('StopContainer')).toHaveLength(0)
    })

    it('a fixed edit then replaces it: Ready, restart count 0 and no last state, whatever the old one had', async () => {
      const web = await staticPod('web')
      loop.handleUpdates([{op: 'ADD', pods: [web]}])
      await loop.idle()
      await crash(web)
      expect(statusOf().containerStatuses?.[0]?.restartCount).toBe(1)
      loop.handleUpdates([{op: 'UPDATE', pods: [await staticPod('web', MISSING)]}])
      await loop.idle()
      loop.handleUpdates([{op: 'UPDATE', pods: [await staticPod('web', 'localhost:5000/busybox:2.0')]}])
      await loop.idle()
      expect(running()).toEqual(['web-n1/localhost:5000/busybox:2.0'])
      const cs = statusOf().containerStatuses?.[0]
      expect(cs).toMatchObject({ready: true, restartCount: 0, lastState: {}})
      expect(statusOf().conditions?.find((c) => c.type === 'Ready')?.status).toBe('True')
    })
  })

  it('a recreated sandbox keeps the pod history: restart count, last state, the old sandbox until GC', async () => {
    const web = await staticPod('web')
    loop.handleUpdates([{op: 'ADD', pods: [web]}])
    await loop.idle()
    const [oldSandbox] = [...fake.sandboxes.keys()]
    // The sandbox dies (a reboot, a runtime restart): its container goes with it.
    await fake.stopPodSandbox(oldSandbox!)
    fake.calls.length = 0
    clock.advance(1000)
    loop.handleLifecycleEvents([{uid: web.pod.metadata.uid, type: 'ContainerDied', containerId: 'x'}])
    await loop.idle()
    expect(fake.callNames()).toContain('RunPodSandbox')
    expect(fake.callNames()).not.toContain('RemovePodSandbox')
    expect(fake.sandboxes.has(oldSandbox!)).toBe(true)
    const cs = loop.statuses()[0]!.status?.containerStatuses?.[0]
    expect(cs?.restartCount).toBe(1)
    expect(cs?.lastState?.terminated?.exitCode).toBe(137)
    expect(running()).toEqual([`web-n1/${IMAGE}`])
    // GC keeps the old sandbox: it holds the dead container `logs --previous` reads.
    await loop.housekeeping.collectGarbage()
    expect(fake.sandboxes.has(oldSandbox!)).toBe(true)
  })

  it('the tick syncs a pod when its activeDeadlineSeconds falls, not a resync later', async () => {
    const file = join(work, 'short.yaml')
    writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata: {name: short}\nspec:\n  activeDeadlineSeconds: 30\n  containers: [{name: main, image: "${IMAGE}"}]\n`)
    const [short] = (await loadStaticPods([file], {nodeName: 'n1', io: diskIO})).pods
    loop.handleUpdates([{op: 'ADD', pods: [short!]}])
    await loop.idle()
    expect(running()).toHaveLength(1)
    // The sandbox was created a fraction of a millisecond after the clock's start.
    clock.advance(30_001)
    loop.tick()
    await loop.idle()
    expect(running()).toEqual([])
    expect(loop.statuses()[0]!.status).toMatchObject({phase: 'Failed', reason: 'DeadlineExceeded'})
  })

  it('an edit starts a new active deadline window and a new startTime; the DeadlineExceeded event is Normal', async () => {
    const file = join(work, 'short.yaml')
    const version = (label: string): string => `apiVersion: v1\nkind: Pod\nmetadata: {name: short, labels: {v: "${label}"}}\nspec:\n  activeDeadlineSeconds: 30\n  containers: [{name: main, image: "${IMAGE}"}]\n`
    const load = async (label: string): Promise<StaticPod> => {
      writeFileSync(file, version(label))
      return (await loadStaticPods([file], {nodeName: 'n1', io: diskIO})).pods[0]!
    }
    const events: string[] = []
    const emit = node.events.emit.bind(node.events)
    vi.spyOn(node.events, 'emit').mockImplementation((object, type, reason, message) => {
      events.push(`${type} ${reason}`)
      return emit(object, type, reason, message)
    })
    const firstSync = clock.now()
    loop.handleUpdates([{op: 'ADD', pods: [await load('1')]}])
    await loop.idle()
    expect(loop.statuses()[0]!.status?.startTime).toBe(new Date(firstSync).toISOString().replace(/\.\d{3}Z$/, 'Z'))
    clock.advance(20_000)
    const edited = clock.now()
    loop.handleUpdates([{op: 'UPDATE', pods: [await load('2')]}])
    await loop.idle()
    expect(loop.statuses()[0]!.status?.startTime).toBe(new Date(edited).toISOString().replace(/\.\d{3}Z$/, 'Z'))
    // 30 s after the first sync, but 10 s into the edit's window: still running.
    clock.advance(10_001)
    loop.tick()
    await loop.idle()
    expect(running()).toHaveLength(1)
    clock.advance(20_000)
    loop.tick()
    await loop.idle()
    expect(running()).toEqual([])
    expect(loop.statuses()[0]!.status).toMatchObject({phase: 'Failed', reason: 'DeadlineExceeded'})
    expect(events).toContain('Normal DeadlineExceeded')
    expect(events).not.toContain('Warning DeadlineExceeded')
  })

  it('removes a pod only once the sources are ready', async () => {
    const web = await staticPod('web')
    loop.handleUpdates([{op: 'ADD', pods: [web]}])
    await loop.idle()
    loop.handleUpdates([{op: 'REMOVE', pods: [web]}])
    await loop.idle()
    expect(running()).toHaveLength(1)
    ready = true
    await loop.housekeeping.killOrphans()
    await loop.idle()
    expect(running()).toEqual([])
    expect(fake.sandboxes.size).toBe(0)
  })

  it('housekeeping removes kube-node pods no source wants, and leaves foreign sandboxes alone', async () => {
    const web = await staticPod('web')
    loop.handleUpdates([{op: 'ADD', pods: [web]}])
    await loop.idle()
    await fake.runPodSandbox({metadata: {name: 'foreign', uid: 'f', namespace: 'default', attempt: 0}, hostname: '', logDirectory: '', portMappings: [], labels: {'io.kubernetes.pod.uid': 'f'}, annotations: {}})
    // A fresh loop (as after a restart) that no longer has "web" in any source.
    const fresh = new SyncLoop({sync: node.sync, logger: silentLogger, clock, sourcesReady: () => true, objects: () => EMPTY_OBJECT_STORE})
    await fresh.housekeeping.killOrphans()
    await fresh.idle()
    expect([...fake.sandboxes.values()].map((s) => s.sandbox.metadata.name)).toEqual(['foreign'])
  })

  it('adopts what runs after a restart without restarting it', async () => {
    const web = await staticPod('web')
    loop.handleUpdates([{op: 'ADD', pods: [web]}])
    await loop.idle()
    const before = [...fake.containers.keys()]
    fake.calls.length = 0
    const restarted = new SyncLoop({sync: node.sync, logger: silentLogger, clock, sourcesReady: () => true, objects: () => EMPTY_OBJECT_STORE})
    restarted.handleUpdates([{op: 'ADD', pods: [web]}])
    await restarted.idle()
    expect(fake.mutatingCalls()).toEqual([])
    expect([...fake.containers.keys()]).toEqual(before)
  })

  it('garbage collection keeps one dead container per name, and big logs are rotated', async () => {
    const web = await staticPod('web')
    loop = new SyncLoop({sync: node.sync, logger: silentLogger, clock, sourcesReady: () => true, objects: () => EMPTY_OBJECT_STORE}, {random: () => 0, logRotation: {maxSizeBytes: 100, maxFiles: 2}})
    loop.handleUpdates([{op: 'ADD', pods: [web]}])
    await loop.idle()
    for (let i = 0; i < 2; i++) {
      const live = [...fake.containers.entries()].find(([, c]) => c.status.state === 'CONTAINER_RUNNING')![0]
      fake.exitContainer(live, 1)
      clock.advance(60_000)
      loop.handleLifecycleEvents([{uid: web.pod.metadata.uid, type: 'ContainerDied', containerId: live}])
      await loop.idle()
    }
    expect([...fake.containers.values()].map((c) => c.status.state).sort()).toEqual(['CONTAINER_EXITED', 'CONTAINER_EXITED', 'CONTAINER_RUNNING'])
    const live = [...fake.containers.values()].find((c) => c.status.state === 'CONTAINER_RUNNING')!
    mkdirSync(dirname(live.status.logPath), {recursive: true})
    writeFileSync(live.status.logPath, 'x'.repeat(200))
    await loop.housekeeping.collectGarbage()
    expect([...fake.containers.values()].map((c) => c.status.state).sort()).toEqual(['CONTAINER_EXITED', 'CONTAINER_RUNNING'])
    expect(fake.callsOf('ReopenContainerLog').map((c) => c.args[0])).toEqual([live.status.id])
    expect(readdirSync(dirname(live.status.logPath)).filter((n) => n.startsWith(`${basename(live.status.logPath)}.`))).toHaveLength(1)
  })

  it('a resync answers from a fresh PLEG view without reading the runtime, and never from a stale one', async () => {
    const web = await staticPod('web')
    loop.handleUpdates([{op: 'ADD', pods: [web]}])
    await loop.idle()
    expect(running()).toHaveLength(1)
    // The cache was read when the pod last changed, not after: the runtime is read, and nothing is started twice.
    clock.advance(1000)
    fake.calls.length = 0
    loop.handleLifecycleEvents([{uid: web.pod.metadata.uid, type: 'ContainerStarted', containerId: 'x'}])
    await loop.idle()
    expect(fake.callsOf('ListContainers').length).toBeGreaterThan(0)
    expect(fake.mutatingCalls()).toEqual([])
    // A relist (the PLEG's) that began after the last change is used as it is.
    clock.advance(1000)
    await node.cache.refresh()
    fake.calls.length = 0
    loop.handleLifecycleEvents([{uid: web.pod.metadata.uid, type: 'ContainerStarted', containerId: 'x'}])
    await loop.idle()
    expect(fake.callNames().filter((c) => c.startsWith('List') && c !== 'ListImages')).toEqual([])
    expect(fake.mutatingCalls()).toEqual([])
  })
})
