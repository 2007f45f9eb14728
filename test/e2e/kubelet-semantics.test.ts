// Kubelet semantics a user notices, on a real containerd: activeDeadlineSeconds, an edited finished
// pod running again, the config hash following each edit, and a dead sandbox recreated with the
// pod's history (restart count, last state, `logs --previous`, completed containers not run again).
// Also: a kill interrupts a pull that never ends (`watch` removal, `run` Ctrl-C).
import {afterEach, describe, expect, it} from 'vitest'
import {mkdirSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BUSYBOX, NODE, SOCKET, ctr, ctrContainersWithLabel, eventually, getPods, kn, startKn, watchSuite} from './support.js'
import {callName, startStallProxy, type StallProxy} from './stall-proxy.js'

const {dirs, manifests, watch} = watchSuite()

const podYaml = (name: string, spec: string): string => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  terminationGracePeriodSeconds: 1
${spec}`

describe('kubelet semantics (real containerd)', () => {
  const find = async (name: string) => (await getPods(dirs)).find((p) => p.metadata.name === `${name}-${NODE}`)

  it('activeDeadlineSeconds: the pod is stopped and Failed with DeadlineExceeded', async () => {
    writeFileSync(join(manifests, 'short.yaml'), podYaml('short', `  activeDeadlineSeconds: 3\n  containers:\n  - {name: main, image: ${BUSYBOX}, command: [sh, -c, "while true; do sleep 1; done"]}\n`))
    await watch()
    const pod = await eventually(async () => {
      const p = await find('short')
      return p?.status.phase === 'Failed' && p.status.containerStatuses?.[0]?.state['terminated'] ? p : undefined
    }, 60_000, 'short to be stopped by its deadline')
    expect((pod.status as {reason?: string}).reason).toBe('DeadlineExceeded')
    const events = await kn(dirs, ['events', 'short'])
    expect(events.stdout).toMatch(/Normal +DeadlineExceeded +pod\/short-\S+ +Pod was active on the node longer than the specified deadline/)
  })

  it('an edited finished pod runs again; the config hash follows each edit while the UID stays', async () => {
    const job = (message: string): string => podYaml('job', `  restartPolicy: Never\n  containers:\n  - {name: main, image: ${BUSYBOX}, command: [sh, -c, "echo ${message}"]}\n`)
    writeFileSync(join(manifests, 'job.yaml'), job('first'))
    await watch()
    const first = await eventually(async () => {
      const p = await find('job')
      return p?.status.phase === 'Succeeded' ? p : undefined
    }, 60_000, 'the job to succeed')
    writeFileSync(join(manifests, 'job.yaml'), job('second'))
    const second = await eventually(async () => {
      const p = await find('job')
      const cs = p?.status.containerStatuses?.[0]
      return p?.status.phase === 'Succeeded' && cs?.containerID !== first.status.containerStatuses?.[0]?.containerID ? p : undefined
    }, 60_000, 'the edited job to run again')
    expect(second.metadata.uid).toBe(first.metadata.uid)
    expect(second.metadata.annotations?.['kubernetes.io/config.hash']).not.toBe(first.metadata.annotations?.['kubernetes.io/config.hash'])
    expect((await kn(dirs, ['logs', 'job'])).stdout.trim()).toBe('second')
  })

  /** The pod's sandboxes (ctr, independent of kube-node) and those whose pause process runs. */
  const sandboxes = (name: string): {all: string[]; ready: string[]} => {
    const all = ctr(['containers', 'list', '-q', `labels."io.kubernetes.pod.name"==${name}-${NODE},labels."io.cri-containerd.kind"==sandbox`]).split('\n').filter(Boolean)
    const running = new Set(ctr(['tasks', 'ls']).split('\n').slice(1).map((l) => l.trim().split(/\s+/)).filter((f) => f[2] === 'RUNNING').map((f) => f[0]))
    return {all, ready: all.filter((id) => running.has(id))}
  }
  /** How many containers of that name the pod has had that the runtime still holds. */
  const instances = (pod: string, container: string): number =>
    ctr(['containers', 'list', '-q', `labels."io.kubernetes.pod.name"==${pod}-${NODE},labels."io.kubernetes.container.name"==${container}`]).split('\n').filter(Boolean).length
  /** The sandbox's task dies under the pod, as at a reboot or an OOM of the pause process. */
  const killSandbox = (name: string): string => {
    const [sandbox] = sandboxes(name).ready
    expect(sandbox, `${name} has a ready sandbox`).toBeDefined()
    ctr(['tasks', 'kill', '-s', 'SIGKILL', sandbox!])
    return sandbox!
  }

  it('a sandbox that dies is recreated with the pod history: restart count, lastState, logs --previous, the old sandbox', async () => {
    // Each instance prints a line of its own, so the previous instance's log can be told apart.
    writeFileSync(join(manifests, 'keep.yaml'), podYaml('keep', `  containers:\n  - {name: main, image: ${BUSYBOX}, command: [sh, -c, "echo instance $(cat /proc/sys/kernel/random/uuid); while true; do sleep 1; done"]}\n`))
    await watch()
    const before = await eventually(async () => {
      const cs = (await find('keep'))?.status.containerStatuses?.[0]
      return cs?.state['running'] ? cs : undefined
    }, 60_000, 'keep running')
    const firstLog = await eventually(async () => {
      const out = (await kn(dirs, ['logs', 'keep'])).stdout.trim()
      return out.startsWith('instance ') ? out : undefined
    }, 30_000, 'the first instance to log')
    const old = killSandbox('keep')
    const after = await eventually(async () => {
      const cs = (await find('keep'))?.status.containerStatuses?.[0]
      return cs?.state['running'] && cs.restartCount >= 1 ? cs : undefined
    }, 60_000, 'keep running again in a new sandbox')
    expect(after.restartCount).toBeGreaterThanOrEqual(1)
    // The container that died with the old sandbox is the last state, as in the kubelet.
    expect(after.lastState?.['terminated']?.containerID).toBe(before.containerID)
    const previous = await kn(dirs, ['logs', 'keep', '--previous'])
    expect(previous.code, previous.stderr).toBe(0)
    expect(previous.stdout.trim()).toBe(firstLog)
    const current = await eventually(async () => {
      const out = (await kn(dirs, ['logs', 'keep'])).stdout.trim()
      return out.startsWith('instance ') ? out : undefined
    }, 30_000, 'the new instance to log')
    expect(current).not.toBe(firstLog)
    // The old sandbox is kept (not ready) for that history until GC; one sandbox is ready.
    const now = sandboxes('keep')
    expect(now.all).toContain(old)
    expect(now.ready).toHaveLength(1)
    expect(now.ready).not.toContain(old)
  })

  it('an OnFailure container that exited 0 is not run again when its sandbox is recreated', async () => {
    const containers = `  restartPolicy: OnFailure\n  containers:\n  - {name: once, image: ${BUSYBOX}, command: [sh, -c, "echo done"]}\n  - {name: serve, image: ${BUSYBOX}, command: [sh, -c, "while true; do sleep 1; done"]}\n`
    writeFileSync(join(manifests, 'mixed.yaml'), podYaml('mixed', containers))
    await watch()
    const status = (p: Awaited<ReturnType<typeof find>>, name: string) => p?.status.containerStatuses?.find((c) => c.name === name)
    const before = await eventually(async () => {
      const p = await find('mixed')
      return status(p, 'once')?.state['terminated']?.exitCode === 0 && status(p, 'serve')?.state['running'] ? p : undefined
    }, 60_000, 'once done and serve running')
    killSandbox('mixed')
    const after = await eventually(async () => {
      const p = await find('mixed')
      const serve = status(p, 'serve')
      return serve?.state['running'] && serve.restartCount >= 1 ? p : undefined
    }, 60_000, 'serve running again in a new sandbox')
    // `once` keeps its verdict from the old sandbox: the same container, not run again.
    const once = status(after, 'once')
    expect(once?.containerID).toBe(status(before, 'once')?.containerID)
    expect(once?.restartCount).toBe(0)
    expect(once?.state['terminated']?.exitCode).toBe(0)
    expect(instances('mixed', 'once')).toBe(1)
    expect(after.status.phase).toBe('Running')
    expect(sandboxes('mixed').ready).toHaveLength(1)
  })

  describe('a kill interrupts a pull that never ends', () => {
    let proxy: StallProxy | undefined
    afterEach(async () => {
      await proxy?.close()
      proxy = undefined
    })
    const pulls = (): {stalled: boolean; cancelled?: boolean}[] => (proxy?.calls ?? []).filter((c) => callName(c.method) === 'PullImage')
    const stallPulls = (p: StallProxy): void => p.setPolicy((method) => callName(method) === 'PullImage')
    const ours = (pod: string): string[] => ctrContainersWithLabel('io.kubernetes.pod.name', `${pod}-${NODE}`)

    it('watch: removing the manifest of a pod whose update is stuck pulling stops it at once', async () => {
      proxy = await startStallProxy({socketPath: join(dirs.work, 'stall.sock'), upstreamSocket: SOCKET})
      const loop = (n: number): string => podYaml('pulling', `  containers:\n  - {name: main, image: ${BUSYBOX}, command: [sh, -c, "while true; do sleep ${n}; done"]}\n`)
      writeFileSync(join(manifests, 'pulling.yaml'), loop(1))
      const daemon = await watch({endpoint: proxy.endpoint})
      await eventually(async () => ((await find('pulling'))?.status.containerStatuses?.[0]?.state['running'] ? true : undefined), 60_000, 'pulling to run')
      // The edit restarts the container, after a pull (image :latest) that never ends.
      stallPulls(proxy)
      writeFileSync(join(manifests, 'pulling.yaml'), loop(2))
      await eventually(() => (pulls().some((c) => c.stalled) ? true : undefined), 30_000, 'the stalled pull')
      const t0 = Date.now()
      rmSync(join(manifests, 'pulling.yaml'))
      // The file check (1s) and SIGTERM with the 2s minimum grace: seconds, where the pull never ends.
      await eventually(() => (ours('pulling').length === 0 ? true : undefined), 20_000, 'the pod to be gone')
      const took = Date.now() - t0
      expect(took).toBeLessThan(15_000)
      expect(pulls().filter((c) => c.stalled).every((c) => c.cancelled)).toBe(true)
      expect(daemon.stderr()).not.toMatch(/ErrImagePull/)
      console.log(`pod gone ${took} ms after its manifest, its pull cancelled`)
    }, 120_000)

    it('run: Ctrl-C while a pull never ends exits at once', async () => {
      proxy = await startStallProxy({socketPath: join(dirs.work, 'stall.sock'), upstreamSocket: SOCKET})
      stallPulls(proxy)
      const dir = join(dirs.work, 'run-pull')
      mkdirSync(dir, {recursive: true})
      writeFileSync(join(dir, 'stuck.yaml'), podYaml('stuck', `  containers:\n  - {name: main, image: ${BUSYBOX}, command: [sh, -c, "sleep 3600"]}\n`))
      const run = startKn(dirs, ['run', '-f', dir, '--timeout', '10m'], {endpoint: proxy.endpoint})
      await eventually(() => (pulls().some((c) => c.stalled) ? true : undefined), 30_000, 'the stalled pull')
      const t0 = Date.now()
      const code = await run.stop('SIGINT')
      const took = Date.now() - t0
      expect(took, run.stderr()).toBeLessThan(5_000)
      expect(code, run.stderr()).toBe(1)
      expect(run.stderr()).toMatch(/interrupted/)
      await eventually(() => (pulls().every((c) => !c.stalled || c.cancelled) ? true : undefined), 5_000, 'the pull to be cancelled')
      expect(ours('stuck')).toEqual([])
      console.log(`run exited ${took} ms after SIGINT, its pull cancelled`)
    }, 120_000)
  })
})
