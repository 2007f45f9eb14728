// `top pods` over a node: two stats samples a moment apart give the pods' CPU rate and memory;
// a name that matches nothing, or pods with no figures, are errors (exit 1).
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {FakeRuntime} from '../../support/fake-runtime.js'
import {FakeClock} from '../../support/fake-clock.js'
import {createNode, type KubeNode} from '../../../src/node/create-node.js'
import {runPods} from '../../../src/services/run.js'
import {topPods} from '../../../src/services/top.js'
import {NotFoundError} from '../../../src/util/errors.js'
import {silentLogger} from '../../../src/util/logger.js'

const IMAGE = 'localhost:5000/busybox:latest'

describe('topPods', () => {
  let work: string
  let node: KubeNode
  let fake: FakeRuntime
  let clock: FakeClock

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-top-int-'))
    fake = new FakeRuntime({images: ['localhost:5000/pause:3.9'], pullable: [IMAGE]})
    clock = new FakeClock(fake)
    node = await createNode(
      {nodeName: 'node1', rootDir: join(work, 'root'), podLogsDir: join(work, 'logs'), runtimeEndpoint: 'unix:///unused.sock', imageEndpoint: 'unix:///unused.sock', runtimeRequestTimeoutMs: 1000, resolvConf: '', clusterDNS: [], clusterDomain: 'cluster.local', parallelism: 4},
      silentLogger,
      {runtime: fake, clock},
    )
    const manifest = join(work, 'web.yaml')
    writeFileSync(manifest, `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: main\n    image: ${IMAGE}\n    command: ["sleep", "3600"]\n`)
    await runPods(node, [manifest], {wait: 'running', timeoutMs: 60_000})
  })

  afterEach(() => {
    node.close()
    rmSync(work, {recursive: true, force: true})
  })

  /** Each container uses `cores` between the two samples. */
  function burn(cores: number, bytes: number): void {
    const ids = [...fake.containers.keys()]
    for (const id of ids) fake.usage.set(id, {cpuCoreNanoSeconds: 5e9, workingSetBytes: bytes})
    const sleep = clock.sleep.bind(clock)
    clock.sleep = async (ms: number) => {
      await sleep(ms)
      for (const id of ids) fake.usage.set(id, {cpuCoreNanoSeconds: 5e9 + cores * ms * 1e6, workingSetBytes: bytes})
    }
  }

  it("gives the pod's CPU rate over the two samples and its memory", async () => {
    burn(0.25, 20 << 20)
    const {usages} = await topPods(node, {})
    expect(usages).toHaveLength(1)
    expect(usages[0]).toMatchObject({name: 'web-node1', namespace: 'default', containers: [{name: 'main', nanoCores: 250_000_000, memoryBytes: 20 << 20}]})
    expect(usages[0]!.windowMs).toBeGreaterThan(0)
    expect(fake.calls.filter((c) => c.call === 'ListContainerStats')).toHaveLength(2)
  })

  it('finds a pod by its manifest name and its full name, in its namespace only', async () => {
    burn(0.1, 1 << 20)
    expect((await topPods(node, {name: 'web'})).usages.map((u) => u.name)).toEqual(['web-node1'])
    expect((await topPods(node, {name: 'web-node1', namespace: 'default'})).usages.map((u) => u.name)).toEqual(['web-node1'])
    await expect(topPods(node, {name: 'web', namespace: 'kube-system'})).rejects.toThrow(/pod "web" not found in namespace "kube-system"/)
  })

  it('a name that matches no pod is NotFound', async () => {
    await expect(topPods(node, {name: 'nope'})).rejects.toBeInstanceOf(NotFoundError)
    await expect(topPods(node, {name: 'nope'})).rejects.toThrow('pod "nope" not found')
  })

  it('pods whose runtime reports no figures are an error saying so', async () => {
    await expect(topPods(node, {name: 'web'})).rejects.toThrow(/reported no CPU and memory stats for pod "web"/)
    await expect(topPods(node, {})).rejects.toBeInstanceOf(NotFoundError)
  })
})
