// RestartAllContainers end to end over the fake CRI: an exit that a rule maps to
// RestartAllContainers stops what still runs and starts the pod again in place, from its init
// container, in the same sandbox, with every restart count one higher.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {FakeRuntime} from '../support/fake-runtime.js'
import {FakeClock} from '../support/fake-clock.js'
import {createNode, type KubeNode} from '../../src/node/create-node.js'
import {runPods} from '../../src/services/run.js'
import {silentLogger} from '../../src/util/logger.js'
import {testNodeConfig} from '../support/node-config.js'

const IMAGE = 'localhost:5000/busybox:latest'
const MANIFEST = `apiVersion: v1
kind: Pod
metadata:
  name: worker
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 5
  initContainers:
  - name: setup
    image: ${IMAGE}
  containers:
  - name: src
    image: ${IMAGE}
    restartPolicy: Never
    restartPolicyRules:
    - action: RestartAllContainers
      exitCodes: {operator: In, values: [42]}
  - name: other
    image: ${IMAGE}
`

describe('RestartAllContainers over the fake CRI', () => {
  let work: string
  let fake: FakeRuntime
  let clock: FakeClock
  let node: KubeNode
  let file: string

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-int-restart-all-'))
    fake = new FakeRuntime({images: ['localhost:5000/pause:3.9', IMAGE]})
    clock = new FakeClock(fake)
    node = await createNode(testNodeConfig(work, {nodeName: 'node1'}), silentLogger, {runtime: fake, clock})
    file = join(work, 'worker.yaml')
    writeFileSync(file, MANIFEST)
  })

  afterEach(() => rmSync(work, {recursive: true, force: true}))

  const live = (name: string): string => [...fake.containers.entries()].find(([, c]) => c.status.state === 'CONTAINER_RUNNING' && c.status.metadata.name === name)![0]
  const sync = async (): Promise<Awaited<ReturnType<typeof runPods>>[number]> => (await runPods(node, [file], {wait: 'none', timeoutMs: 60_000}))[0]!

  it('src exits 42: other stops, setup runs again, then both containers, in the same sandbox', async () => {
    await sync()
    clock.advance(1_000)
    fake.exitContainer(live('setup'), 0)
    await sync()
    const sandboxes = [...fake.sandboxes.keys()]
    clock.advance(1_000)
    fake.exitContainer(live('src'), 42)
    fake.calls.length = 0
    clock.advance(1_000)
    let pod = await sync()
    // The restart: what ran is stopped, the init container runs again; nothing else starts yet.
    expect(fake.callNames().filter((c) => c === 'StopContainer' || c === 'CreateContainer')).toEqual(['StopContainer', 'CreateContainer'])
    expect(pod.status.initContainerStatuses?.[0]).toMatchObject({name: 'setup', restartCount: 1})
    expect(pod.status.initContainerStatuses?.[0]?.state?.running).toBeDefined()
    // Restarting, not Failed: the earlier run's exits (42, 137) are history.
    expect(pod.status.phase).toBe('Pending')
    clock.advance(1_000)
    fake.exitContainer(live('setup'), 0)
    pod = await sync()
    expect([...fake.sandboxes.keys()]).toEqual(sandboxes)
    const byName = Object.fromEntries((pod.status.containerStatuses ?? []).map((c) => [c.name, c]))
    expect(byName['src']).toMatchObject({restartCount: 1, lastState: {terminated: {exitCode: 42}}})
    expect(byName['other']).toMatchObject({restartCount: 1})
    expect(byName['src']?.state?.running).toBeDefined()
    expect(byName['other']?.state?.running).toBeDefined()
    expect(pod.status.phase).toBe('Running')
  })
})
