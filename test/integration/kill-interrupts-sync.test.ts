// A kill interrupts the sync in flight (the kubelet cancels the pod worker's context): over the
// fake CRI, a pull that never ends or a postStart hook that hangs is cancelled the moment the
// pod's manifest goes, the kill runs at once, and the interrupted sync reports nothing.
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import * as http from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {FakeRuntime} from '../support/fake-runtime.js'
import {FakeClock} from '../support/fake-clock.js'
import {createNode, type KubeNode} from '../../src/node/create-node.js'
import {loadStaticPods} from '../../src/manifest/load.js'
import {SyncLoop} from '../../src/loop/sync-loop.js'
import {runOnce} from '../../src/loop/run-once.js'
import {backOffKey} from '../../src/loop/sync-pod.js'
import {runHook} from '../../src/apply/lifecycle.js'
import {EMPTY_OBJECT_STORE} from '../../src/manifest/object-store.js'
import {podDataDir} from '../../src/kuberuntime/naming.js'
import {silentLogger} from '../../src/util/logger.js'
import type {StaticPod} from '../../src/api/types.js'
import {close, listen} from './prober/listen.js'
import {testNodeConfig} from '../support/node-config.js'
import {diskIO} from '../support/disk-io.js'

const IMAGE = 'localhost:5000/busybox:1.0'
const HUGE = 'localhost:5000/huge:1.0'
/** A kill after an interruption runs over the fake clock: it takes no real time. */
const PROMPT_MS = 1000

describe('a kill interrupts the running sync', () => {
  let work: string
  let fake: FakeRuntime
  let clock: FakeClock
  let node: KubeNode
  let loop: SyncLoop
  let reasons: string[]

  async function staticPod(name: string, spec: string): Promise<StaticPod> {
    const file = join(work, `${name}.yaml`)
    writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n${spec}`)
    return (await loadStaticPods([file], {nodeName: 'n1', io: diskIO})).pods[0]!
  }

  const oneContainer = (image: string, extra = ''): string => `  terminationGracePeriodSeconds: 5\n  containers:\n  - {name: main, image: "${image}"${extra}}\n`

  /** Removes the pod's manifest and resolves once the kill is done, with how long that took. */
  async function remove(sp: StaticPod): Promise<number> {
    const t0 = Date.now()
    loop.handleUpdates([{op: 'REMOVE', pods: [sp]}])
    await loop.idle()
    return Date.now() - t0
  }

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-interrupt-'))
    fake = new FakeRuntime({images: [IMAGE], pullable: [HUGE]})
    clock = new FakeClock(fake)
    node = await createNode(
      testNodeConfig(work),
      silentLogger,
      {runtime: fake, clock},
    )
    reasons = []
    const emit = node.events.emit.bind(node.events)
    vi.spyOn(node.events, 'emit').mockImplementation((object, type, reason, message) => {
      reasons.push(`${reason}: ${message}`)
      emit(object, type, reason, message)
    })
    loop = new SyncLoop({sync: node.sync, logger: silentLogger, clock, sourcesReady: () => true, objects: () => EMPTY_OBJECT_STORE}, {random: () => 0})
  })

  afterEach(async () => {
    fake.release('PullImage')
    fake.release('ExecSync')
    await loop.stop()
    rmSync(work, {recursive: true, force: true})
  })

  it('a first pull that never ends: removing the manifest cancels it, and nothing of the pod is left', async () => {
    fake.stall('PullImage')
    const pod = await staticPod('huge', oneContainer(HUGE))
    loop.handleUpdates([{op: 'ADD', pods: [pod]}])
    await fake.whenStalled('PullImage')
    expect(await remove(pod)).toBeLessThan(PROMPT_MS)
    expect(fake.cancelled).toEqual(['PullImage'])
    expect(fake.callNames()).not.toContain('RunPodSandbox')
    expect(reasons.filter((r) => /ErrImagePull|Failed/.test(r))).toEqual([])
    expect(node.sync.backOff.size).toBe(0)
    await node.events.flush()
    expect(existsSync(podDataDir(join(work, 'root'), pod.pod.metadata.uid))).toBe(false)
  })

  it('an update whose pull never ends: the kill stops the running pod at once, with no ErrImagePull', async () => {
    const pod = await staticPod('web', oneContainer(IMAGE))
    loop.handleUpdates([{op: 'ADD', pods: [pod]}])
    await loop.idle()
    expect(fake.sandboxes.size).toBe(1)
    fake.stall('PullImage')
    const edited = await staticPod('web', oneContainer(HUGE))
    loop.handleUpdates([{op: 'UPDATE', pods: [edited]}])
    await fake.whenStalled('PullImage')
    expect(await remove(edited)).toBeLessThan(PROMPT_MS)
    expect(fake.cancelled).toEqual(['PullImage'])
    // The kill ran as usual: SIGTERM with the grace period, then the sandbox went.
    expect(fake.callsOf('StopContainer').map((c) => c.args[1])).toEqual([5])
    expect(fake.sandboxes.size).toBe(0)
    expect(fake.containers.size).toBe(0)
    expect(reasons.filter((r) => /ErrImagePull|Failed/.test(r))).toEqual([])
    expect(node.sync.backOff.get(backOffKey(edited.pod.metadata.uid, 'main', edited.facts), clock.now())).toBeUndefined()
  })

  it('housekeeping: a pod removed before the sources were ready is killed, interrupting its stuck pull', async () => {
    let ready = false
    loop = new SyncLoop({sync: node.sync, logger: silentLogger, clock, sourcesReady: () => ready, objects: () => EMPTY_OBJECT_STORE}, {random: () => 0})
    const pod = await staticPod('web', oneContainer(IMAGE))
    loop.handleUpdates([{op: 'ADD', pods: [pod]}])
    await loop.idle()
    fake.stall('PullImage')
    const edited = await staticPod('web', oneContainer(HUGE))
    loop.handleUpdates([{op: 'UPDATE', pods: [edited]}])
    await fake.whenStalled('PullImage')
    // Not yet a kill: the sources have not all spoken.
    loop.handleUpdates([{op: 'REMOVE', pods: [edited]}])
    ready = true
    await loop.housekeeping.killOrphans(await node.cache.refresh())
    await loop.idle()
    expect(fake.cancelled).toEqual(['PullImage'])
    expect(fake.sandboxes.size).toBe(0)
  })

  it('a postStart hook that hangs: the kill cancels its exec and stops the container', async () => {
    fake.stall('ExecSync')
    const pod = await staticPod('hook', oneContainer(IMAGE, ', lifecycle: {postStart: {exec: {command: [sleep, "3600"]}}}'))
    loop.handleUpdates([{op: 'ADD', pods: [pod]}])
    await fake.whenStalled('ExecSync')
    expect(await remove(pod)).toBeLessThan(PROMPT_MS)
    expect(fake.cancelled).toEqual(['ExecSync'])
    expect(fake.callNames()).toContain('StopContainer')
    expect(fake.sandboxes.size).toBe(0)
    expect(reasons.filter((r) => /FailedPostStartHook|Failed/.test(r))).toEqual([])
  })

  it('an edit that is not a kill waits for the pull in flight', async () => {
    fake.stall('PullImage')
    const pod = await staticPod('huge', oneContainer(HUGE))
    loop.handleUpdates([{op: 'ADD', pods: [pod]}])
    await fake.whenStalled('PullImage')
    loop.handleUpdates([{op: 'UPDATE', pods: [await staticPod('huge', oneContainer(HUGE, ', env: [{name: A, value: b}]'))]}])
    await new Promise((r) => setImmediate(r))
    expect(fake.cancelled).toEqual([])
    fake.release('PullImage')
    await loop.idle()
    // Both syncs ran to their end: the first started the container, the edit replaced it.
    expect(fake.cancelled).toEqual([])
    expect(fake.callsOf('CreateContainer')).toHaveLength(2)
    expect([...fake.containers.values()].map((c) => c.status.state).sort()).toEqual(['CONTAINER_EXITED', 'CONTAINER_RUNNING'])
  })

  it('a passed active deadline interrupts a sync stuck in a postStart hook, and the pod is killed', async () => {
    fake.stall('ExecSync')
    const pod = await staticPod('short', `  activeDeadlineSeconds: 30\n${oneContainer(IMAGE, ', lifecycle: {postStart: {exec: {command: [sleep, "3600"]}}}')}`)
    loop.handleUpdates([{op: 'ADD', pods: [pod]}])
    await fake.whenStalled('ExecSync')
    // The PLEG's relist sees the sandbox, from which the deadline counts.
    await node.cache.refresh()
    clock.advance(30_001)
    loop.tick()
    await loop.idle()
    expect(fake.cancelled).toEqual(['ExecSync'])
    expect([...fake.containers.values()].map((c) => c.status.state)).toEqual(['CONTAINER_EXITED'])
    expect(loop.statuses()[0]!.status).toMatchObject({phase: 'Failed', reason: 'DeadlineExceeded'})
  })

  it('run: its signal (Ctrl-C) ends a pull that never ends, and the pod is reported interrupted', async () => {
    fake.stall('PullImage')
    const pod = await staticPod('huge', oneContainer(HUGE))
    const ctl = new AbortController()
    const done = runOnce(node.sync, [pod], {wait: 'running', timeoutMs: 600_000, parallelism: 1, signal: ctl.signal}, {objects: EMPTY_OBJECT_STORE})
    await fake.whenStalled('PullImage')
    const t0 = Date.now()
    ctl.abort()
    const [result] = await done
    expect(Date.now() - t0).toBeLessThan(PROMPT_MS)
    expect(result).toMatchObject({outcome: 'failed', reason: 'interrupted'})
    expect(fake.cancelled).toEqual(['PullImage'])
    expect(reasons.filter((r) => /ErrImagePull|Failed/.test(r))).toEqual([])
  })
})

describe('runHook with a signal', () => {
  it('an httpGet hook to a server that never answers stops waiting at the abort', async () => {
    const server = http.createServer(() => {})
    const port = await listen(server)
    try {
      const ctl = new AbortController()
      const hook = runHook(
        {runtime: new FakeRuntime(), clock: new FakeClock()},
        {httpGet: {port, path: '/slow'}},
        {containerId: 'c1', containerName: 'main', pod: 'web_default(uid)', podIP: '127.0.0.1', ports: []},
        120_000,
        ctl.signal,
      )
      setTimeout(() => ctl.abort(), 50)
      const t0 = Date.now()
      const out = await hook
      expect(Date.now() - t0).toBeLessThan(PROMPT_MS)
      expect(out).toMatchObject({ok: false})
      expect(out.ok ? '' : out.message).toMatch(/context canceled/)
    } finally {
      server.closeAllConnections()
      await close(server)
    }
  })
})
