// Container restart rules end to end over the fake CRI: the pod's restartPolicy is Never, yet a
// container whose rule says `In [42]` runs again after exiting 42, and stays stopped after 1.
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
  name: job
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 5
  containers:
  - name: main
    image: ${IMAGE}
    command: ["sleep", "3600"]
    restartPolicy: Never
    restartPolicyRules:
    - action: Restart
      exitCodes:
        operator: In
        values: [42]
`

describe('restartPolicyRules over the fake CRI', () => {
  let work: string
  let fake: FakeRuntime
  let clock: FakeClock
  let node: KubeNode
  let file: string

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-int-rules-'))
    fake = new FakeRuntime({images: ['localhost:5000/pause:3.9'], pullable: [IMAGE]})
    clock = new FakeClock(fake)
    const config = testNodeConfig(work, {nodeName: 'node1'})
    node = await createNode(config, silentLogger, {runtime: fake, clock})
    file = join(work, 'job.yaml')
    writeFileSync(file, MANIFEST)
  })

  afterEach(() => rmSync(work, {recursive: true, force: true}))

  const running = (): string => [...fake.containers.entries()].find(([, c]) => c.status.state === 'CONTAINER_RUNNING')![0]
  const starts = (): number => fake.mutatingCalls().filter((c) => c === 'StartContainer').length

  it('a container exiting 42 runs again under its rule In [42], though the pod is Never', async () => {
    await runPods(node, [file], {wait: 'none', timeoutMs: 60_000})
    fake.exitContainer(running(), 42)
    fake.calls.length = 0
    const r = await runPods(node, [file], {wait: 'none', timeoutMs: 60_000})
    expect(starts()).toBe(1)
    const cs = r[0]!.status.containerStatuses?.[0]
    expect(cs?.restartCount).toBe(1)
    expect(cs?.lastState?.terminated?.exitCode).toBe(42)
    expect(r[0]!.status.phase).toBe('Running')
  })

  it('a container exiting 1 matches no rule: it stays stopped and the pod has Failed', async () => {
    await runPods(node, [file], {wait: 'none', timeoutMs: 60_000})
    fake.exitContainer(running(), 1)
    fake.calls.length = 0
    const r = await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    expect(starts()).toBe(0)
    expect(r[0]!.status.phase).toBe('Failed')
    expect(r[0]!.outcome).toBe('failed')
    expect(r[0]!.status.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(1)
  })

  it('exits 42 and then 0: restarted once, then Succeeded', async () => {
    await runPods(node, [file], {wait: 'none', timeoutMs: 60_000})
    fake.exitContainer(running(), 42)
    await runPods(node, [file], {wait: 'none', timeoutMs: 60_000})
    fake.exitContainer(running(), 0)
    const r = await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    expect(r[0]!.status.phase).toBe('Succeeded')
    expect(r[0]!.status.containerStatuses?.[0]?.restartCount).toBe(1)
  })
})
