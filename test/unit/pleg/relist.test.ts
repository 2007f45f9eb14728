import {beforeEach, describe, expect, it} from 'vitest'
import {Pleg, type PlegMetrics} from '../../../src/pleg/relist.js'
import {RuntimeCache} from '../../../src/pleg/runtime-cache.js'
import type {PodLifecycleEvent} from '../../../src/pleg/events.js'
import type {RuntimeContainerState} from '../../../src/kuberuntime/model.js'
import {silentLogger, type LogFields, type Logger} from '../../../src/util/logger.js'
import {FakeRuntime} from '../../support/fake-runtime.js'
import {FakeClock} from '../../support/fake-clock.js'
import type {RuntimeService} from '../../../src/cri/port.js'
import {addPod, IMAGE, sandboxConfig} from './fake-pods.js'

const OPTS = {periodMs: 1000, unhealthyThresholdMs: 180_000}

let fake: FakeRuntime
let clock: FakeClock
/** The runtime cache the last Pleg made here fills. */
let cache: RuntimeCache
const cacheOf = (runtime: RuntimeService): RuntimeCache => new RuntimeCache(runtime, fake, clock)

beforeEach(() => {
  fake = new FakeRuntime({images: [IMAGE]})
  clock = new FakeClock(fake)
})

/** The CRI calls made by `fn`. */
async function callsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const before = fake.calls.length
  await fn()
  return fake.callNames().slice(before)
}

const short = (events: PodLifecycleEvent[]): string[] => events.map((e) => `${e.uid}/${e.containerId}/${e.type}`)

describe('Pleg relist', () => {
  it('costs exactly one ListPodSandbox and one ListContainers call when nothing changed', async () => {
    await addPod(fake, 'a', ['web', 'log'])
    const pleg = new Pleg((cache = cacheOf(fake)), clock, silentLogger, OPTS)
    await pleg.relist()
    for (let i = 0; i < 3; i++) {
      clock.advance(1000)
      expect(await callsDuring(() => pleg.relist())).toEqual(['ListPodSandbox', 'ListContainers'])
    }
    expect(fake.callsOf('ListPodSandbox')[0]!.args[0]).toEqual({labelSelector: {'kube-node.io/managed': 'true'}})
    expect(fake.callsOf('ListContainers')[0]!.args[0]).toEqual({labelSelector: {'kube-node.io/managed': 'true'}})
  })

  it('reports a new pod as started and caches its IP, exit details and log paths', async () => {
    const {sandboxId, containerIds} = await addPod(fake, 'a', ['web', 'log'])
    const pleg = new Pleg((cache = cacheOf(fake)), clock, silentLogger, OPTS)
    const calls = await callsDuring(async () => {
      const events = await pleg.relist()
      expect(short(events).sort()).toEqual(
        [`a/${sandboxId}/ContainerStarted`, ...containerIds.map((id) => `a/${id}/ContainerStarted`)].sort(),
      )
    })
    expect(calls.sort()).toEqual(['ContainerStatus', 'ContainerStatus', 'ListContainers', 'ListPodSandbox', 'PodSandboxStatus'])
    const pod = cache.get('a')!
    expect(pod.sandboxes[0]).toMatchObject({id: sandboxId, state: 'ready', ip: '10.88.0.2'})
    expect(pod.containers.map((c) => [c.name, c.state])).toEqual([
      ['log', 'running'],
      ['web', 'running'],
    ])
    expect(pod.containers[0]!.logPath).toBe('/var/log/pods/default_pod-a-node1_a/log/0.log')
    expect(cache.all().map((p) => p.uid)).toEqual(['a'])
    expect(cache.get('nope')).toBeUndefined()
  })

  it('fetches the status of a container that exited once, and never again', async () => {
    const {containerIds} = await addPod(fake, 'a', ['web', 'log'])
    const [web] = containerIds as [string]
    const pleg = new Pleg((cache = cacheOf(fake)), clock, silentLogger, OPTS)
    await pleg.relist()

    clock.advance(1000)
    fake.exitContainer(web, 3)
    let events: PodLifecycleEvent[] = []
    const calls = await callsDuring(async () => (events = await pleg.relist()))
    expect(short(events)).toEqual([`a/${web}/ContainerDied`])
    expect(calls).toEqual(['ListPodSandbox', 'ListContainers', 'ContainerStatus'])
    expect(fake.calls.at(-1)!.args).toEqual([web])
    expect(cache.get('a')!.containers.find((c) => c.id === web)).toMatchObject({state: 'exited', exitCode: 3, reason: 'Error'})

    clock.advance(1000)
    expect(await callsDuring(() => pleg.relist())).toEqual(['ListPodSandbox', 'ListContainers'])
  })

  it('follows a container from created to running, asking its status at each change', async () => {
    const {containerIds} = await addPod(fake, 'a', ['web'], {start: false})
    const [web] = containerIds as [string]
    const pleg = new Pleg((cache = cacheOf(fake)), clock, silentLogger, OPTS)
    expect(short(await pleg.relist())).toContain(`a/${web}/ContainerChanged`)

    await fake.startContainer(web)
    let events: PodLifecycleEvent[] = []
    const calls = await callsDuring(async () => (events = await pleg.relist()))
    expect(short(events)).toEqual([`a/${web}/ContainerStarted`])
    expect(calls).toEqual(['ListPodSandbox', 'ListContainers', 'ContainerStatus'])
    expect(cache.get('a')!.containers[0]!.startedAt).toBeGreaterThan(0)
  })

  it('reports removals: Died first when the container had not been seen exited', async () => {
    const {containerIds} = await addPod(fake, 'a', ['web', 'log'])
    const [web, log] = containerIds as [string, string]
    const pleg = new Pleg((cache = cacheOf(fake)), clock, silentLogger, OPTS)
    await pleg.relist()
    fake.exitContainer(web, 0)
    await pleg.relist()

    await fake.removeContainer(web)
    await fake.removeContainer(log)
    const events = short(await pleg.relist())
    expect([...events].sort()).toEqual([`a/${log}/ContainerDied`, `a/${log}/ContainerRemoved`, `a/${web}/ContainerRemoved`].sort())
    // Died comes before Removed for the same container.
    expect(events.indexOf(`a/${log}/ContainerDied`)).toBe(events.indexOf(`a/${log}/ContainerRemoved`) - 1)
    expect(cache.get('a')!.containers).toEqual([])
  })

  it('reports a whole pod going away and forgets it', async () => {
    const {sandboxId, containerIds} = await addPod(fake, 'a', ['web'])
    const pleg = new Pleg((cache = cacheOf(fake)), clock, silentLogger, OPTS)
    await pleg.relist()
    await fake.stopPodSandbox(sandboxId)
    expect(short(await pleg.relist())).toEqual([`a/${sandboxId}/ContainerDied`, `a/${containerIds[0]}/ContainerDied`])
    await fake.removePodSandbox(sandboxId)
    expect(short(await pleg.relist())).toEqual([`a/${sandboxId}/ContainerRemoved`, `a/${containerIds[0]}/ContainerRemoved`])
    expect(cache.get('a')).toBeUndefined()
  })

  it('does not look at sandboxes and containers kube-node did not label', async () => {
    await addPod(fake, 'a', ['web'])
    const foreign = await fake.runPodSandbox({...sandboxConfig('x'), labels: {'io.kubernetes.pod.uid': 'x'}})
    const pleg = new Pleg((cache = cacheOf(fake)), clock, silentLogger, OPTS)
    const events = await pleg.relist()
    expect(events.every((e) => e.uid === 'a')).toBe(true)
    expect(fake.callsOf('PodSandboxStatus').map((c) => c.args[0])).not.toContain(foreign)
  })

  it('asks a host-network sandbox for its IP only once, though it has none', async () => {
    await addPod(fake, 'a', ['web'], {hostNetwork: true})
    const pleg = new Pleg((cache = cacheOf(fake)), clock, silentLogger, OPTS)
    await pleg.relist()
    await pleg.relist()
    expect(fake.callsOf('PodSandboxStatus')).toHaveLength(1)
    expect(cache.get('a')!.sandboxes[0]!.ip).toBe('')
  })

  it('tolerates a container removed between the list and its status call', async () => {
    const {containerIds} = await addPod(fake, 'a', ['web'])
    const pleg = new Pleg((cache = cacheOf(fake)), clock, silentLogger, OPTS)
    fake.failNext('ContainerStatus', 'NotFound')
    const events = await pleg.relist()
    expect(short(events)).toContain(`a/${containerIds[0]}/ContainerStarted`)
    expect(pleg.healthy(clock.now()).ok).toBe(true)
    // Its status was not learned, so it is asked again.
    expect(await callsDuring(() => pleg.relist())).toEqual(['ListPodSandbox', 'ListContainers', 'ContainerStatus'])
  })
})

function recordingLogger(): Logger & {warnings: string[]; debugs: string[]; infos: string[]} {
  const warnings: string[] = []
  const debugs: string[] = []
  const infos: string[] = []
  const line = (msg: string, f?: LogFields): string => `${msg} ${String(f?.['error'] ?? '')}`.trim()
  return {
    warnings,
    debugs,
    infos,
    info: (m, f) => infos.push(line(m, f)),
    warn: (m, f) => warnings.push(line(m, f)),
    error: (m, f) => warnings.push(line(m, f)),
    debug: (_v, m, f) => debugs.push(line(m, f)),
    enabled: () => true,
  }
}

describe('Pleg failures and health', () => {
  it('is unhealthy until the first relist succeeds', async () => {
    const pleg = new Pleg((cache = cacheOf(fake)), clock, silentLogger, OPTS)
    expect(pleg.healthy(clock.now())).toEqual({ok: false, reason: 'pleg has yet to be successful'})
    fake.failNext('ListPodSandbox', 'Unavailable')
    await pleg.relist()
    expect(pleg.healthy(clock.now()).ok).toBe(false)
    await pleg.relist()
    expect(pleg.healthy(clock.now())).toEqual({ok: true})
  })

  it('keeps the previous cache when the runtime is down, and turns unhealthy after the threshold', async () => {
    const {containerIds} = await addPod(fake, 'a', ['web'])
    const logger = recordingLogger()
    const pleg = new Pleg((cache = cacheOf(fake)), clock, logger, OPTS)
    await pleg.relist()
    const seenAt = cache.timestamp()
    expect(seenAt).toBe(clock.now())

    fake.exitContainer(containerIds[0]!, 1)
    fake.failNext('ListContainers', 'Unavailable', 'connection refused', 1000)
    for (let i = 0; i < 179; i++) {
      clock.advance(1000)
      expect(await pleg.relist()).toEqual([])
    }
    expect(cache.get('a')!.containers[0]!.state).toBe('running')
    expect(cache.timestamp()).toBe(seenAt)
    expect(pleg.healthy(clock.now()).ok).toBe(true)

    clock.advance(1000)
    await pleg.relist()
    expect(pleg.healthy(clock.now())).toEqual({ok: false, reason: 'pleg was last seen active 180s ago; threshold is 180s'})
    // One warning for the one distinct error; the repeats go to debug.
    expect(logger.warnings).toEqual([expect.stringContaining('connection refused')])
    expect(logger.debugs.filter((d) => d.includes('relist failed again'))).toHaveLength(179)

    // A different error is worth a warning of its own.
    fake.failNext('ListContainers', 'DeadlineExceeded', 'too slow')
    await pleg.relist()
    expect(logger.warnings).toHaveLength(2)
  })

  it('recovers: health comes back and the missed change arrives as an event', async () => {
    const {containerIds} = await addPod(fake, 'a', ['web'])
    const logger = recordingLogger()
    const pleg = new Pleg((cache = cacheOf(fake)), clock, logger, OPTS)
    await pleg.relist()
    fake.exitContainer(containerIds[0]!, 1)
    fake.failNext('ListPodSandbox', 'Unavailable', 'down', 2)
    await pleg.relist()
    await pleg.relist()
    clock.advance(200_000)
    expect(pleg.healthy(clock.now()).ok).toBe(false)
    expect(short(await pleg.relist())).toEqual([`a/${containerIds[0]}/ContainerDied`])
    expect(pleg.healthy(clock.now()).ok).toBe(true)
    expect(logger.infos).toEqual([expect.stringContaining('succeeded again')])
  })
})

describe('Pleg metrics', () => {
  it('records relist duration, interval, last-seen time and running counts', async () => {
    const seen: {relists: [number, number | undefined][]; lastSeen: number[]; running: [number, Record<RuntimeContainerState, number>][]} = {
      relists: [],
      lastSeen: [],
      running: [],
    }
    const metrics: PlegMetrics = {
      observeRelist: (d, i) => seen.relists.push([d, i]),
      setLastSeen: (t) => seen.lastSeen.push(t),
      setRunning: (p, c) => seen.running.push([p, c]),
    }
    await addPod(fake, 'a', ['web', 'log'])
    await addPod(fake, 'b', ['job'], {start: false})
    // Listing sandboxes takes 30 ms.
    const slow: RuntimeService = Object.assign(Object.create(fake) as FakeRuntime, {
      listPodSandbox: (...args: Parameters<RuntimeService['listPodSandbox']>) => {
        clock.advance(30)
        return fake.listPodSandbox(...args)
      },
    })
    const pleg = new Pleg((cache = cacheOf(slow)), clock, silentLogger, OPTS, metrics)
    await pleg.relist()
    clock.advance(1470)
    await pleg.relist()
    fake.failNext('ListPodSandbox')
    await pleg.relist()
    expect(seen.relists).toEqual([
      [30, undefined],
      [30, 1500],
      [30, undefined],
    ])
    expect(seen.lastSeen).toEqual([clock.now() - 1530, clock.now() - 30])
    expect(seen.running.at(-1)).toEqual([2, {created: 1, running: 2, exited: 0, unknown: 0}])
  })
})

describe('Pleg loop', () => {
  it('relists every period, hands over non-empty event batches, and stops', async () => {
    const pleg = new Pleg((cache = cacheOf(fake)), clock, silentLogger, OPTS)
    const batches: PodLifecycleEvent[][] = []
    let sleep = clock.waitForSleep()
    const t0 = clock.now()
    pleg.start((events) => batches.push(events))
    await sleep
    expect(batches).toEqual([])

    sleep = clock.waitForSleep()
    const {sandboxId} = await addPod(fake, 'a', ['web'])
    await sleep
    // The next relist ran one period later and saw the new pod.
    expect(batches).toHaveLength(1)
    expect(batches[0]!.map((e) => e.containerId)).toContain(sandboxId)
    expect(cache.timestamp()).toBe(t0 + 1000)

    await pleg.stop()
    const lists = fake.callsOf('ListPodSandbox').length
    clock.advance(5000)
    await new Promise((r) => setImmediate(r))
    expect(fake.callsOf('ListPodSandbox')).toHaveLength(lists)
  })

  it('survives an event handler that throws', async () => {
    await addPod(fake, 'a', ['web'])
    const logger = recordingLogger()
    const pleg = new Pleg((cache = cacheOf(fake)), clock, logger, OPTS)
    const sleep = clock.waitForSleep()
    pleg.start(() => {
      throw new Error('boom')
    })
    await sleep
    const next = clock.waitForSleep()
    await next
    await pleg.stop()
    expect(logger.warnings).toEqual(['PLEG event handler failed boom'])
  })
})
