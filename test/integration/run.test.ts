// The whole core behind `run`, `plan`, `get` and `down` over the in-memory fake CRI: manifests on
// disk in, CRI calls out. A fake clock makes back-off and timeouts instant.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {mkdtempSync, rmSync, writeFileSync, existsSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {podManifest} from '../support/manifests.js'
import {FakeRuntime} from '../support/fake-runtime.js'
import {FakeClock} from '../support/fake-clock.js'
import {createNode, type KubeNode} from '../../src/node/create-node.js'
import {runPods} from '../../src/services/run.js'
import {planPods} from '../../src/services/plan.js'
import {getPods} from '../../src/services/get.js'
import {listManagedPods, matchesName} from '../../src/services/pods/managed-pods.js'
import {downPods} from '../../src/services/down.js'
import {silentLogger} from '../../src/util/logger.js'
import {InvalidInputError} from '../../src/util/errors.js'
import {testNodeConfig} from '../support/node-config.js'

const IMAGE = 'localhost:5000/busybox:latest'

function pod(name: string, extra = '', image = IMAGE): string {
  return podManifest(name, {image, extra})
}

describe('run over the fake CRI', () => {
  let work: string
  let fake: FakeRuntime
  let clock: FakeClock
  let node: KubeNode

  function write(name: string, text: string): string {
    const p = join(work, name)
    writeFileSync(p, text)
    return p
  }

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-int-'))
    fake = new FakeRuntime({images: ['localhost:5000/pause:3.9'], pullable: [IMAGE]})
    clock = new FakeClock(fake)
    const config = testNodeConfig(work, {nodeName: 'node1'})
    node = await createNode(config, silentLogger, {runtime: fake, clock})
  })

  afterEach(() => rmSync(work, {recursive: true, force: true}))

  it('pulls, creates the sandbox and starts the container, in that order, and reports Running', async () => {
    const results = await runPods(node, [write('web.yaml', pod('web'))], {wait: 'running', timeoutMs: 60_000})
    expect(results.map((r) => [r.sp.pod.metadata.name, r.outcome])).toEqual([['web-node1', 'done']])
    expect(results[0]!.status.phase).toBe('Running')
    expect(fake.mutatingCalls()).toEqual(['PullImage', 'RunPodSandbox', 'CreateContainer', 'StartContainer'])
    // Log directory and the stored manifest exist, as `get` and `logs` need them.
    const uid = results[0]!.sp.pod.metadata.uid
    expect(existsSync(join(work, 'logs', `default_web-node1_${uid}`, 'main'))).toBe(true)
    expect(existsSync(join(work, 'root', 'pods', uid, 'pod.json'))).toBe(true)
  })

  it('asks a new sandbox its status once: the IP learnt when it was created serves the later reads', async () => {
    const results = await runPods(node, [write('web.yaml', pod('web'))], {wait: 'running', timeoutMs: 60_000})
    expect(results[0]!.status.podIP).toMatch(/^10\./)
    expect(fake.callNames().filter((c) => c === 'PodSandboxStatus')).toHaveLength(1)
  })

  /** Serves `text` at a local URL once `ready()` holds (or after two seconds); says which it was. */
  async function slowSource(text: string, ready: () => boolean): Promise<{url: string; answeredWhenReady: Promise<boolean>; close: () => void}> {
    let answered!: (ready: boolean) => void
    const answeredWhenReady = new Promise<boolean>((resolve) => (answered = resolve))
    const server = createServer((_req, res) => {
      const start = Date.now()
      const poll = (): void => {
        if (!ready() && Date.now() - start < 2000) return void setTimeout(poll, 5)
        answered(ready())
        res.end(text)
      }
      poll()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const {port} = server.address() as AddressInfo
    return {url: `http://127.0.0.1:${port}/web.yaml`, answeredWhenReady, close: () => server.close()}
  }

  it('reads the runtime while the manifests load, and still changes nothing when one is invalid', async () => {
    const listed = (): boolean => ['ListPodSandbox', 'ListContainers', 'ListImages'].every((c) => fake.callNames().includes(c))
    const valid = await slowSource(pod('web'), listed)
    try {
      const results = await runPods(node, [valid.url], {wait: 'running', timeoutMs: 60_000})
      expect(await valid.answeredWhenReady).toBe(true)
      expect(results.map((r) => r.outcome)).toEqual(['done'])
      expect(fake.callNames().filter((c) => c.startsWith('List'))).toEqual(expect.arrayContaining(['ListPodSandbox', 'ListContainers', 'ListImages']))
    } finally {
      valid.close()
    }
    fake.calls.length = 0
    const invalid = await slowSource(pod('bad', '  restartPolicy: Sometimes\n'), () => fake.callNames().includes('ListPodSandbox'))
    try {
      await expect(runPods(node, [invalid.url], {wait: 'running', timeoutMs: 60_000})).rejects.toThrow(InvalidInputError)
      expect(await invalid.answeredWhenReady).toBe(true)
      expect(fake.mutatingCalls()).toEqual([])
    } finally {
      invalid.close()
    }
  })

  it('waits for a runtime that is briefly away (the read made while the manifests load fails too), then runs the pod', async () => {
    fake.failNext('ListPodSandbox', 'Unavailable', 'connection refused', 2)
    const waiting: string[] = []
    const results = await runPods(node, [write('web.yaml', pod('web'))], {wait: 'running', timeoutMs: 60_000}, (e) => {
      if (e.kind === 'waiting') waiting.push(e.text)
    })
    expect(results.map((r) => r.outcome)).toEqual(['done'])
    expect(waiting).toHaveLength(2)
    expect(waiting[0]).toMatch(/^runtime not reachable, retrying: .*connection refused/)
  })

  it('a new pod costs five CRI calls; the listings are made once per run, not per pod', async () => {
    // A tagged image already present: IfNotPresent, so nothing is pulled.
    const files = ['a', 'b', 'c'].map((n) => write(`${n}.yaml`, pod(n, '', 'localhost:5000/busybox:1.36')))
    fake.addImage('localhost:5000/busybox:1.36')
    fake.calls.length = 0
    const results = await runPods(node, files, {wait: 'running', timeoutMs: 60_000})
    expect(results.map((r) => r.outcome)).toEqual(['done', 'done', 'done'])
    const names = fake.callNames()
    const count = (call: string): number => names.filter((c) => c === call).length
    expect([count('ListPodSandbox'), count('ListContainers'), count('ListImages')]).toEqual([1, 1, 1])
    const perPod = names.filter((c) => !c.startsWith('List'))
    expect(perPod.length / 3, perPod.join(',')).toBeLessThanOrEqual(5)
    expect(new Set(perPod)).toEqual(new Set(['RunPodSandbox', 'PodSandboxStatus', 'CreateContainer', 'StartContainer', 'ContainerStatus']))
  })

  it('a second run of the same manifest makes no changing call', async () => {
    const file = write('web.yaml', pod('web'))
    await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    fake.calls.length = 0
    const again = await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    expect(again[0]!.outcome).toBe('done')
    expect(fake.mutatingCalls()).toEqual([])
  })

  it('an edited image replaces only that container and keeps the sandbox', async () => {
    fake.pullable.add('localhost:5000/busybox:1.36')
    await runPods(node, [write('web.yaml', pod('web'))], {wait: 'running', timeoutMs: 60_000})
    const sandboxes = [...fake.sandboxes.keys()]
    fake.calls.length = 0
    const r = await runPods(node, [write('web.yaml', pod('web', '', 'localhost:5000/busybox:1.36'))], {wait: 'running', timeoutMs: 60_000})
    expect(r[0]!.outcome).toBe('done')
    expect(fake.mutatingCalls()).toEqual(['PullImage', 'StopContainer', 'CreateContainer', 'StartContainer'])
    expect([...fake.sandboxes.keys()]).toEqual(sandboxes)
  })

  it('a missing image fails the pod with ErrImagePull and stops nothing else', async () => {
    const r = await runPods(node, [write('bad.yaml', pod('bad', '', 'localhost:5000/nope:1'))], {wait: 'running', timeoutMs: 60_000})
    expect(r[0]!.outcome).toBe('failed')
    expect(r[0]!.reason).toContain('ErrImagePull')
    expect(r[0]!.status.containerStatuses?.[0]?.state?.waiting?.reason).toBe('ErrImagePull')
  })

  it('invalid input throws before any CRI call', async () => {
    const bad = write('bad.yaml', pod('bad').replace('image: localhost', 'image: "  "\n    x: localhost'))
    await expect(runPods(node, [write('ok.yaml', pod('ok')), bad], {wait: 'running', timeoutMs: 1000})).rejects.toBeInstanceOf(InvalidInputError)
    expect(fake.mutatingCalls()).toEqual([])
  })

  it('restarts a crashed container under restartPolicy Always, with back-off after the first restart', async () => {
    const file = write('web.yaml', pod('web'))
    await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    const first = [...fake.containers.keys()][0]!
    fake.exitContainer(first, 1)
    const r = await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    expect(r[0]!.outcome).toBe('done')
    expect(r[0]!.status.containerStatuses?.[0]?.restartCount).toBe(1)
    expect(r[0]!.status.containerStatuses?.[0]?.lastState?.terminated?.exitCode).toBe(1)
  })

  describe('the verdict: running means running steadily (--stable-for)', () => {
    const WINDOW = 5_000
    const live = (): string => [...fake.containers.entries()].find(([, c]) => c.status.state === 'CONTAINER_RUNNING')![0]

    it('a container that exits at once fails the pod at once: one immediate restart, then its back-off is the verdict', async () => {
      const start = clock.now()
      const promise = runPods(node, [write('web.yaml', pod('web'))], {wait: 'running', timeoutMs: 300_000, stableForMs: WINDOW})
      await clock.waitForSleep()
      fake.exitContainer(live(), 3)
      await clock.waitForSleep()
      fake.exitContainer(live(), 3)
      const [r] = await promise
      expect(r!.outcome).toBe('failed')
      expect(r!.reason).toMatch(/container "main" exited with code 3 \(Error\) .* and is in CrashLoopBackOff \(restarts: 1\)/)
      // Judged as soon as it crashed again, not at the 5-minute timeout.
      expect(clock.now() - start).toBeLessThan(WINDOW)
      expect(fake.callsOf('StartContainer')).toHaveLength(2)
    })

    it('a pod that crashes once, restarts and stays up for the window succeeds, reporting its restart', async () => {
      const start = clock.now()
      const promise = runPods(node, [write('web.yaml', pod('web'))], {wait: 'running', timeoutMs: 300_000, stableForMs: WINDOW})
      await clock.waitForSleep()
      fake.exitContainer(live(), 1)
      const [r] = await promise
      expect(r!.outcome).toBe('done')
      expect(r!.status.containerStatuses?.[0]?.restartCount).toBe(1)
      expect(clock.now() - start).toBeGreaterThanOrEqual(WINDOW)
    })

    it('a status read right after StartContainer is not the verdict: the run waits the window', async () => {
      const start = clock.now()
      const [r] = await runPods(node, [write('web.yaml', pod('web'))], {wait: 'running', timeoutMs: 300_000, stableForMs: WINDOW})
      expect(r!.outcome).toBe('done')
      expect(r!.reason).toMatch(/Running for 5s/)
      expect(clock.now() - start).toBeGreaterThanOrEqual(WINDOW)
    })

    it('an idempotent re-run of a pod already steady is judged at once, without waiting the window again', async () => {
      const file = write('web.yaml', pod('web'))
      await runPods(node, [file], {wait: 'ready', timeoutMs: 300_000, stableForMs: WINDOW})
      const start = clock.now()
      const [r] = await runPods(node, [file], {wait: 'ready', timeoutMs: 300_000, stableForMs: WINDOW})
      expect(r!.outcome).toBe('done')
      expect(clock.now() - start).toBe(0)
    })

    it('a healthy pod beside a crashing one: the crashing one fails, the healthy one is done', async () => {
      const promise = runPods(node, [write('ok.yaml', pod('ok')), write('crash.yaml', pod('crash'))], {wait: 'running', timeoutMs: 300_000, stableForMs: WINDOW})
      const crashing = (): string | undefined => [...fake.containers.entries()].find(([, c]) => c.status.state === 'CONTAINER_RUNNING' && c.status.labels['io.kubernetes.pod.name'] === 'crash-node1')?.[0]
      // Each crash: wait (poll by poll) until the run has (re)started it, then make it exit.
      for (let crashes = 0, polls = 0; crashes < 2 && polls < 50; polls++) {
        await clock.waitForSleep()
        const id = crashing()
        if (id) {
          fake.exitContainer(id, 2)
          crashes++
        }
      }
      const results = await promise
      expect(results.map((x) => [x.sp.manifestName, x.outcome])).toEqual([
        ['ok', 'done'],
        ['crash', 'failed'],
      ])
    })

    it('a container that cannot start (a wrong command) fails the pod at once with its reason, after one attempt', async () => {
      fake.failStarts()
      const start = clock.now()
      const [r] = await runPods(node, [write('web.yaml', pod('web'))], {wait: 'running', timeoutMs: 300_000, stableForMs: WINDOW})
      expect(r!.outcome).toBe('failed')
      expect(r!.reason).toMatch(/container "main" cannot start: RunContainerError \(.*executable file not found/)
      expect(fake.callsOf('StartContainer')).toHaveLength(1)
      expect(clock.now() - start).toBeLessThan(1000)
    })

    it('a runtime that was only slow (a deadline on CreateContainer or StartContainer) is retried, not a verdict', async () => {
      fake.failNext('CreateContainer', 'DeadlineExceeded', 'context deadline exceeded')
      const [r] = await runPods(node, [write('web.yaml', pod('web'))], {wait: 'running', timeoutMs: 300_000, stableForMs: WINDOW})
      expect(r!.outcome).toBe('done')
      fake.failNext('StartContainer', 'Unavailable', 'connection refused')
      const [again] = await runPods(node, [write('other.yaml', pod('other'))], {wait: 'running', timeoutMs: 300_000, stableForMs: WINDOW})
      expect(again!.outcome).toBe('done')
    })

    it('a sandbox the runtime keeps failing to create: the progress and the timeout name the runtime\'s error, not only Pending', async () => {
      fake.failNext('RunPodSandbox', 'Unknown', 'failed to setup network for sandbox: plugin type="bridge" failed', Number.POSITIVE_INFINITY)
      const waits: string[] = []
      const [r] = await runPods(node, [write('web.yaml', pod('web'))], {wait: 'running', timeoutMs: 30_000, stableForMs: WINDOW}, (e) => {
        if (e.kind === 'waiting') waits.push(e.text)
      })
      expect(r!.outcome).toBe('timeout')
      expect(r!.reason).toMatch(/^timed out: pod is Pending: CreatePodSandboxError: failed to create sandbox: .*plugin type="bridge" failed/)
      expect(waits.at(-1)).toMatch(/CreatePodSandboxError/)
      expect(fake.mutatingCalls()).not.toContain('CreateContainer')
    })

    it('the deadline interrupts a sync that is stuck in the runtime (a pull that never answers)', async () => {
      fake.stall('PullImage')
      const start = clock.now()
      const promise = runPods(node, [write('web.yaml', pod('web'))], {wait: 'running', timeoutMs: 30_000, stableForMs: WINDOW})
      await fake.whenStalled('PullImage')
      clock.advance(40_000)
      const [r] = await promise
      expect(r!.outcome).toBe('timeout')
      expect(clock.now() - start).toBeLessThan(60_000)
    })
  })

  it('an upgrade to an image that cannot be pulled fails the run at once and leaves the old container serving', async () => {
    const file = write('web.yaml', pod('web'))
    await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    const [oldId] = [...fake.containers.keys()]
    const [r] = await runPods(node, [write('web.yaml', pod('web', '', 'localhost:5000/missing:1'))], {wait: 'running', timeoutMs: 60_000})
    expect(r!.outcome).toBe('failed')
    expect(r!.reason).toMatch(/ErrImagePull/)
    expect(fake.containers.get(oldId!)?.status.state).toBe('CONTAINER_RUNNING')
    expect(fake.callsOf('StopContainer')).toHaveLength(0)
    expect(r!.status.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False')
  })

  it('a sandbox that died is recreated with the pod history; run collects what GC drops, nothing more', async () => {
    const file = write('web.yaml', pod('web'))
    await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    const [s1] = [...fake.sandboxes.keys()]
    // The sandbox dies twice (a reboot, a runtime restart), a run after each.
    await fake.stopPodSandbox(s1!)
    const second = await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    const cs = second[0]!.status.containerStatuses?.[0]
    expect(cs?.restartCount).toBe(1)
    expect(cs?.lastState?.terminated?.exitCode).toBe(137)
    // The old sandbox holds the dead container `logs --previous` reads: GC keeps it.
    expect(fake.sandboxes.has(s1!)).toBe(true)
    const s2 = [...fake.sandboxes.keys()].find((id) => id !== s1)!
    await fake.stopPodSandbox(s2)
    fake.calls.length = 0
    const third = await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    expect(third[0]!.status.containerStatuses?.[0]?.restartCount).toBe(2)
    // The KillPod stops every sandbox of the pod, the dead ones too, as the kubelet's does (`:latest`
    // is pulled each start). Then the first sandbox and its container are history GC drops; the
    // second keeps the newest dead container.
    expect(fake.mutatingCalls()).toEqual([
      'StopPodSandbox',
      'StopPodSandbox',
      'RunPodSandbox',
      'PullImage',
      'CreateContainer',
      'StartContainer',
      'RemoveContainer',
      'StopPodSandbox',
      'RemovePodSandbox',
    ])
    expect(fake.sandboxes.has(s1!)).toBe(false)
    expect([...fake.sandboxes.values()].map((s) => s.sandbox.state).sort()).toEqual(['SANDBOX_NOTREADY', 'SANDBOX_READY'])
    expect([...fake.containers.values()].map((c) => c.status.state).sort()).toEqual(['CONTAINER_EXITED', 'CONTAINER_RUNNING'])
  })

  it('an OnFailure pod whose container succeeded does not run it again when its sandbox died', async () => {
    const file = write('job.yaml', pod('job', '  restartPolicy: OnFailure\n'))
    const promise = runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    await clock.waitForSleep()
    for (const id of fake.containers.keys()) fake.exitContainer(id, 0)
    expect((await promise)[0]!.status.phase).toBe('Succeeded')
    for (const id of fake.sandboxes.keys()) await fake.stopPodSandbox(id)
    fake.calls.length = 0
    const r = await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    expect(r[0]!.outcome).toBe('done')
    expect(r[0]!.status.phase).toBe('Succeeded')
    expect(fake.mutatingCalls()).toEqual([])
  })

  it('a run-to-completion pod is done when it has Succeeded', async () => {
    const file = write('job.yaml', pod('job', '  restartPolicy: Never\n'))
    const promise = runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    // Let the first sync start the container, then let it finish successfully.
    await clock.waitForSleep()
    for (const id of fake.containers.keys()) fake.exitContainer(id, 0)
    const r = await promise
    expect(r[0]!.outcome).toBe('done')
    expect(r[0]!.status.phase).toBe('Succeeded')
  })

  it('plan shows the actions and changes nothing', async () => {
    const plans = await planPods(node, [write('web.yaml', pod('web'))])
    expect(plans[0]!.plan.actions.map((a) => a.type)).toEqual(['PullImage', 'CreateSandbox', 'StartContainer'])
    expect(fake.mutatingCalls()).toEqual([])
  })

  it('get lists the pod with status, and down removes it and its directories', async () => {
    const file = write('web.yaml', pod('web'))
    const [res] = await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    const list = await getPods(node)
    expect(list.items.map((p) => [p.metadata?.name, p.status?.phase])).toEqual([['web-node1', 'Running']])
    const down = await downPods(node, {all: true})
    expect(down.removed).toEqual(['web-node1'])
    expect(fake.sandboxes.size).toBe(0)
    expect(existsSync(join(work, 'root', 'pods', res!.sp.pod.metadata.uid))).toBe(false)
    expect((await getPods(node)).items).toEqual([])
  })

  it('get in a new process lists the runtime twice and asks nothing more while the records describe it', async () => {
    const files = ['a', 'b', 'c'].map((n) => write(`${n}.yaml`, pod(n)))
    const results = await runPods(node, files, {wait: 'running', timeoutMs: 60_000})
    // Another process: the same root directory, nothing cached.
    const reader = await createNode(node.config, silentLogger, {runtime: fake, clock})
    fake.calls.length = 0
    const list = await getPods(reader)
    expect(fake.callNames().sort()).toEqual(['ListContainers', 'ListPodSandbox'])
    expect(list.items.map((p) => [p.metadata?.name, p.status?.phase, p.metadata?.annotations?.['kube-node.io/status-source']])).toEqual([
      ['a-node1', 'Running', 'recorded'],
      ['b-node1', 'Running', 'recorded'],
      ['c-node1', 'Running', 'recorded'],
    ])
    expect(list.items[0]!.status?.containerStatuses?.[0]?.state?.running?.startedAt).toBeDefined()
    // A container that died after its record: that pod alone is read in full, from the runtime.
    const b = results.find((r) => r.sp.manifestName === 'b')!
    const [died] = [...fake.containers.values()].filter((c) => c.status.labels['io.kubernetes.pod.uid'] === b.sp.pod.metadata.uid)
    fake.exitContainer(died!.status.id, 3)
    fake.calls.length = 0
    const after = await getPods(await createNode(node.config, silentLogger, {runtime: fake, clock}))
    expect(fake.callsOf('ContainerStatus').map((c) => c.args[0])).toEqual([died!.status.id])
    const shown = after.items.find((p) => p.metadata?.name === 'b-node1')!
    expect(shown.metadata?.annotations?.['kube-node.io/status-source']).toBe('runtime')
    expect(shown.status?.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(3)
  })

  it('a reader of one pod (logs, exec, describe) asks the runtime the status of that pod alone', async () => {
    const results = await runPods(node, ['a', 'b'].map((n) => write(`${n}.yaml`, pod(n))), {wait: 'running', timeoutMs: 60_000})
    const reader = await createNode(node.config, silentLogger, {runtime: fake, clock})
    fake.calls.length = 0
    const pods = await listManagedPods(reader, {name: 'b'})
    const b = pods.find((p) => matchesName(p, 'b'))!
    expect(b.observed.containers[0]!.logPath).not.toBe('')
    const ofB = [...fake.containers.values()].filter((c) => c.status.labels['io.kubernetes.pod.uid'] === results[1]!.sp.pod.metadata.uid).map((c) => c.status.id)
    expect(fake.callsOf('ContainerStatus').map((c) => c.args[0])).toEqual(ofB)
    expect(fake.callsOf('PodSandboxStatus')).toHaveLength(1)
  })

  it('never touches a sandbox that kube-node did not create', async () => {
    await fake.runPodSandbox({metadata: {name: 'foreign', uid: 'x', namespace: 'default', attempt: 0}, hostname: '', logDirectory: '', portMappings: [], labels: {'io.kubernetes.pod.uid': 'x'}, annotations: {}})
    await downPods(node, {all: true})
    expect(fake.sandboxes.size).toBe(1)
    expect((await getPods(node)).items).toEqual([])
  })

  it('a failing postStart hook kills the container and shows PostStartHookError', async () => {
    Object.assign(fake, {
      execSync: async (id: string, cmd: string[], timeoutSeconds: number) => {
        fake.calls.push({call: 'ExecSync', args: [id, cmd, timeoutSeconds]})
        return {stdout: Buffer.from('hook broke'), stderr: Buffer.alloc(0), exitCode: 1}
      },
    })
    const hook = '    lifecycle:\n      postStart:\n        exec:\n          command: ["sh", "-c", "exit 1"]\n'
    const r = await runPods(node, [write('hook.yaml', pod('hook', '  restartPolicy: Never\n') + hook)], {wait: 'running', timeoutMs: 60_000})
    expect(r[0]!.outcome).toBe('failed')
    expect(fake.mutatingCalls()).toEqual(['PullImage', 'RunPodSandbox', 'CreateContainer', 'StartContainer', 'ExecSync', 'StopContainer'])
    // Killed with the pod's grace period (5s in these manifests).
    expect(fake.callsOf('StopContainer')[0]!.args[1]).toBe(5)
    const state = r[0]!.status.containerStatuses?.[0]?.state
    expect(state?.waiting?.reason).toBe('PostStartHookError')
    expect(state?.waiting?.message).toContain('hook broke')
  })

  it('mounts a termination-message file whose text becomes the terminated message', async () => {
    const {readFileSync, writeFileSync: write2} = await import('node:fs')
    const promise = runPods(node, [write('job.yaml', pod('job', '  restartPolicy: Never\n'))], {wait: 'running', timeoutMs: 60_000})
    await clock.waitForSleep()
    const [id, c] = [...fake.containers.entries()][0]!
    const mount = c.status.mounts.find((m) => m.containerPath === '/dev/termination-log')
    expect(mount?.readonly).toBe(false)
    expect(mount?.hostPath.startsWith(join(work, 'root', 'pods'))).toBe(true)
    expect(readFileSync(mount!.hostPath, 'utf8')).toBe('')
    // The container writes its last words and fails.
    write2(mount!.hostPath, 'config file missing')
    fake.exitContainer(id, 1)
    const r = await promise
    expect(r[0]!.status.phase).toBe('Failed')
    // The runtime cache attaches the message, so status and `get` show it.
    const observed = await node.cache.getNewerThan(r[0]!.sp.pod.metadata.uid, clock.now())
    expect(observed!.containers[0]!.message).toBe('config file missing')
    expect(r[0]!.status.containerStatuses?.[0]?.state?.terminated?.message).toBe('config file missing')
  })

  it('leaves the pods of another node name alone', async () => {
    await runPods(node, [write('web.yaml', pod('web'))], {wait: 'running', timeoutMs: 60_000})
    const other = await createNode({...node.config, nodeName: 'node2'}, silentLogger, {runtime: fake, clock})
    expect((await getPods(other)).items).toEqual([])
    expect((await downPods(other, {all: true})).removed).toEqual([])
    expect((await getPods(node)).items.map((p) => p.metadata?.name)).toEqual(['web-node1'])
  })

  it("reads the runtime once for every pod's first sync: few calls per pod", async () => {
    const files = Array.from({length: 10}, (_, i) => write(`p${i}.yaml`, pod(`p${i}`)))
    const results = await runPods(node, files, {wait: 'running', timeoutMs: 60_000})
    expect(results.every((r) => r.outcome === 'done')).toBe(true)
    // One admission list, one preload list, then one re-read per pod after its changes.
    expect(fake.callsOf('ListPodSandbox').length).toBeLessThanOrEqual(2 + 10)
    expect(fake.callsOf('ListImages').length).toBe(1)
    // The pod IP is asked once per new sandbox (for /etc/hosts), plus once in the re-read.
    expect(fake.callsOf('PodSandboxStatus').length).toBeLessThanOrEqual(2 * 10)
  })

  it('mounts a kubelet-managed /etc/hosts with the pod IP, hostname and hostAliases', async () => {
    const {readFileSync} = await import('node:fs')
    const extra = '  hostAliases: [{ip: "10.1.2.3", hostnames: [db.local]}]\n'
    await runPods(node, [write('web.yaml', pod('web', extra))], {wait: 'running', timeoutMs: 60_000})
    const config = fake.callsOf('CreateContainer')[0]!.args[1] as {mounts: {containerPath: string; hostPath: string}[]}
    const hosts = config.mounts.find((m) => m.containerPath === '/etc/hosts')!
    const text = readFileSync(hosts.hostPath, 'utf8')
    expect(text).toMatch(/^# Kubernetes-managed hosts file\./)
    expect(text).toMatch(/^10\.88\.0\.\d+\tweb-node1$/m)
    expect(text).toMatch(/^10\.1\.2\.3\tdb\.local$/m)
  })
})
