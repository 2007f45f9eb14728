// Admission in `run` and `watch`: a pod the node cannot take fails with the kubelet's reason and
// nothing of it reaches the runtime.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {FakeRuntime} from '../support/fake-runtime.js'
import {FakeClock} from '../support/fake-clock.js'
import {createNode, type KubeNode} from '../../src/node/create-node.js'
import {loadStaticPods} from '../../src/manifest/load.js'
import {runOnce} from '../../src/loop/run-once.js'
import {EMPTY_OBJECT_STORE} from '../../src/manifest/object-store.js'
import {SyncLoop} from '../../src/loop/sync-loop.js'
import {StatusStore} from '../../src/store/status-store.js'
import {getPods} from '../../src/services/get.js'
import {listEvents} from '../../src/services/events.js'
import {podDataDir} from '../../src/kuberuntime/naming.js'
import {silentLogger} from '../../src/util/logger.js'
import type {NodeInfo} from '../../src/util/node-info.js'
import {testNodeConfig} from '../support/node-config.js'
import {diskIO} from '../support/disk-io.js'

const IMAGE = 'localhost:5000/busybox:1.0'
const NODE: NodeInfo = {name: 'n1', maxPods: 110, capacity: {cpuMilli: 2000, memoryBytes: 8 * 2 ** 30, pods: 110}, labels: {'kubernetes.io/os': 'linux', 'kubernetes.io/hostname': 'n1'}, os: 'linux'}

describe('admission', () => {
  let work: string
  let fake: FakeRuntime
  let node: KubeNode

  async function pods(...specs: [string, string][]) {
    const files = specs.map(([name, extra]) => {
      const file = join(work, `${name}.yaml`)
      writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n  containers:\n  - name: main\n    image: "${IMAGE}"\n${extra}`)
      return file
    })
    return (await loadStaticPods(files, {nodeName: 'n1', io: diskIO})).pods
  }

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-adm-'))
    fake = new FakeRuntime({images: [IMAGE]})
    node = await createNode(
      testNodeConfig(work),
      silentLogger,
      {runtime: fake, clock: new FakeClock(fake)},
    )
  })
  afterEach(() => rmSync(work, {recursive: true, force: true}))

  it('run rejects a pod whose host port is taken, and starts the other', async () => {
    const port = '    ports: [{containerPort: 80, hostPort: 8080}]\n'
    const [a, b] = await pods(['first', port], ['second', port])
    const results = await runOnce(node.sync, [a!, b!], {wait: 'running', timeoutMs: 10_000, parallelism: 2, admission: {node: NODE, running: []}}, {objects: EMPTY_OBJECT_STORE})
    expect(results.map((r) => r.outcome)).toEqual(['done', 'failed'])
    expect(results[1]!.status).toMatchObject({phase: 'Failed', reason: 'NodePorts'})
    expect(fake.callsOf('RunPodSandbox')).toHaveLength(1)
  })

  it('run rejects a pod that asks for more CPU than the node has', async () => {
    const [big] = await pods(['big', '    resources: {requests: {cpu: "3"}}\n'])
    const [r] = await runOnce(node.sync, [big!], {wait: 'running', timeoutMs: 10_000, parallelism: 1, admission: {node: NODE, running: []}}, {objects: EMPTY_OBJECT_STORE})
    expect(r!.status.reason).toBe('OutOfcpu')
    expect(r!.reason).toContain('requested: 3000')
    expect(fake.mutatingCalls()).toEqual([])
  })

  it('watch keeps a rejected pod out until an edit makes it fit', async () => {
    const loop = new SyncLoop({sync: node.sync, logger: silentLogger, clock: node.clock, sourcesReady: () => true, objects: () => EMPTY_OBJECT_STORE, node: NODE})
    const [big] = await pods(['big', '    resources: {requests: {cpu: "3"}}\n'])
    loop.handleUpdates([{op: 'ADD', pods: [big!]}])
    await loop.idle()
    expect(loop.statuses()[0]!.status).toMatchObject({phase: 'Failed', reason: 'OutOfcpu'})
    expect(fake.mutatingCalls()).toEqual([])
    const [fits] = await pods(['big', '    resources: {requests: {cpu: "1"}}\n'])
    loop.handleUpdates([{op: 'UPDATE', pods: [fits!]}])
    await loop.idle()
    expect(fake.callsOf('StartContainer')).toHaveLength(1)
    await loop.stop()
  })

  it('a refused pod is listed by get with its reason and event, and leaves nothing behind when its manifest goes', async () => {
    const statusRecorder = new StatusStore({fs: node.fs, rootDir: node.config.rootDir, clock: node.clock, logger: silentLogger}, {command: 'watch', pid: 1, startedAt: 0, processStart: 'x'})
    const loop = new SyncLoop({sync: node.sync, logger: silentLogger, clock: node.clock, sourcesReady: () => true, objects: () => EMPTY_OBJECT_STORE, node: NODE, statusRecorder})
    const [big] = await pods(['big', '    resources: {requests: {cpu: "3"}}\n'])
    loop.handleUpdates([{op: 'ADD', pods: [big!]}])
    await loop.idle()
    await Promise.all([statusRecorder.flush(), node.events.flush()])
    const listed = (await getPods(node)).items
    expect(listed.map((p) => [p.metadata?.name, p.status?.phase, p.status?.reason])).toEqual([['big-n1', 'Failed', 'OutOfcpu']])
    expect((await listEvents(node, {uids: [listed[0]!.metadata!.uid!]})).items.map((e) => e.reason)).toEqual(['OutOfcpu'])
    loop.handleUpdates([{op: 'REMOVE', pods: [big!]}])
    await loop.idle()
    await new Promise((r) => setTimeout(r, 50))
    expect((await getPods(node)).items).toEqual([])
    expect(existsSync(podDataDir(node.config.rootDir, big!.pod.metadata.uid))).toBe(false)
    await loop.stop()
  })
})
