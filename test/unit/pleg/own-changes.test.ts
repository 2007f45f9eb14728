// A pod changed only by this process's own creations is read back alone, with no listing; any
// other change (a stop, a removal, a change to an unknown id) makes the next read a full one.
import {beforeEach, describe, expect, it} from 'vitest'
import type {ContainerConfig, PodSandboxConfig} from '../../../src/cri/api.js'
import {MANAGED_BY_LABEL, MANAGED_BY_VALUE, POD_UID_LABEL} from '../../../src/kuberuntime/labels.js'
import {RuntimeCache} from '../../../src/pleg/runtime-cache.js'
import {FakeClock} from '../../support/fake-clock.js'
import {FakeRuntime} from '../../support/fake-runtime.js'

const sandboxConfig = (uid: string): PodSandboxConfig => ({
  metadata: {name: `p-${uid}`, uid, namespace: 'default', attempt: 0},
  hostname: `p-${uid}`,
  logDirectory: `/logs/${uid}`,
  portMappings: [],
  labels: {[MANAGED_BY_LABEL]: MANAGED_BY_VALUE, [POD_UID_LABEL]: uid},
  annotations: {},
})
const containerConfig = (name: string, uid = 'u1'): ContainerConfig =>
  ({metadata: {name, attempt: 0}, image: {image: 'busybox:1.36'}, command: [], args: [], workingDir: '', envs: [], mounts: [], labels: {[MANAGED_BY_LABEL]: MANAGED_BY_VALUE, [POD_UID_LABEL]: uid}, annotations: {}, logPath: `${name}/0.log`}) as unknown as ContainerConfig

describe('RuntimeCache.afterOwnChanges', () => {
  let fake: FakeRuntime
  let clock: FakeClock
  let cache: RuntimeCache
  let changing: ReturnType<RuntimeCache['track']>

  /** Creates a pod through the tracked port as a sync does: sandbox, its status, one container started. */
  async function createPod(uid: string): Promise<{sandbox: string; container: string}> {
    const config = sandboxConfig(uid)
    const sandbox = await changing.runPodSandbox(config)
    await changing.podSandboxStatus(sandbox)
    const container = await changing.createContainer(sandbox, containerConfig('main', uid), config)
    await changing.startContainer(container)
    return {sandbox, container}
  }

  const listings = (): number => fake.callNames().filter((c) => c.startsWith('List')).length

  beforeEach(async () => {
    fake = new FakeRuntime({images: ['busybox:1.36']})
    clock = new FakeClock(fake)
    cache = new RuntimeCache(fake, fake, clock)
    changing = cache.track(fake)
    await cache.refresh()
    clock.advance(1)
  })

  it('reads a pod back with one ContainerStatus per new container and no listing', async () => {
    const {container} = await createPod('u1')
    fake.calls.length = 0
    const pod = await cache.afterOwnChanges('u1')
    expect(fake.callNames()).toEqual(['ContainerStatus'])
    expect(pod?.containers.map((c) => [c.id, c.state])).toEqual([[container, 'running']])
    expect(pod?.sandboxes[0]?.state).toBe('ready')
    // Every reader sees it, and a read no newer than it costs nothing.
    expect(cache.all().map((p) => p.uid)).toEqual(['u1'])
    expect(await cache.getNewerThan('u1', clock.now() - 1)).toBe(pod)
    expect(listings()).toBe(0)
  })

  it('sees a new container that exited at once as exited', async () => {
    const {container} = await createPod('u1')
    fake.exitContainer(container, 1)
    expect((await cache.afterOwnChanges('u1'))?.containers[0]?.state).toBe('exited')
  })

  it.each([
    ['a container stopped', async (ids: {sandbox: string; container: string}) => changing.stopContainer(ids.container, 0)],
    ['a sandbox stopped', async (ids: {sandbox: string; container: string}) => changing.stopPodSandbox(ids.sandbox)],
    ['a container removed', async (ids: {sandbox: string; container: string}) => changing.stopContainer(ids.container, 0).then(() => changing.removeContainer(ids.container))],
    ['a change to an id no read has seen', async () => changing.stopContainer('unknown-id', 0).catch(() => undefined)],
  ])('reads the whole runtime again after %s', async (_what, change) => {
    const ids = await createPod('u1')
    await change(ids)
    fake.calls.length = 0
    await cache.afterOwnChanges('u1')
    expect(listings()).toBe(2)
  })

  it('a full read settles what was recorded before it: later changes are read back alone again', async () => {
    const first = await createPod('u1')
    await changing.stopContainer(first.container, 0)
    clock.advance(1)
    await cache.refresh()
    clock.advance(1)
    const second = await changing.createContainer(first.sandbox, containerConfig('second'), sandboxConfig('u1'))
    await changing.startContainer(second)
    fake.calls.length = 0
    const pod = await cache.afterOwnChanges('u1')
    expect(listings()).toBe(0)
    expect(pod?.containers.map((c) => c.state).sort()).toEqual(['exited', 'running'])
  })
})
