// Upgrades as kubeadm and monitoring see them, on a real containerd through bin/run.js: an edit
// to an image that cannot be pulled is not Ready (kubectl wait does not pass) while the old
// container keeps serving, stably, over two pull back-off periods; a fixed edit is Ready with its
// restarts back at 0; an annotation bump runs a finished pod again.
import {describe, expect, it} from 'vitest'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {freePort, kubectlWith} from './kubectl-support.js'
import {BUSYBOX, NODE, ctr, eventually, getPods, kn, makeDirs, manifestDir, startWatch, type Daemon, type PodView} from './support.js'

const dirs = makeDirs()
let daemon: Daemon | undefined
const manifests = manifestDir(dirs, async () => {
  if (daemon) await daemon.stop('SIGTERM')
  daemon = undefined
})
const kubeconfig = join(dirs.work, 'kubeconfig')

const kubectl = kubectlWith(kubeconfig, dirs.work)

async function watchWithKubeconfig(): Promise<void> {
  mkdirSync(manifests, {recursive: true})
  daemon = startWatch(dirs, [manifests, '--file-check-frequency', '1s', '--port', String(await freePort()), '--healthz-port', '0'])
  const config = await eventually(async () => {
    const r = await kn(dirs, ['kubeconfig'])
    return r.code === 0 ? r.stdout : undefined
  }, 30_000, 'watch to serve its API')
  writeFileSync(kubeconfig, config, {mode: 0o600})
}

const web = (image: string, env = 'v1'): string => `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${image}
    command: [sh, -c, "trap 'exit 0' TERM; while true; do sleep 1 & wait $!; done"]
    env: [{name: VERSION, value: "${env}"}]
`

async function find(name: string): Promise<PodView | undefined> {
  return (await getPods(dirs)).find((p) => p.metadata.name === `${name}-${NODE}`)
}

function runningTasks(): Set<string> {
  return new Set(
    ctr(['tasks', 'ls'])
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f[2] === 'RUNNING')
      .map((f) => f[0] ?? ''),
  )
}

const bare = (id: string | undefined): string => (id ?? '').replace(/^containerd:\/\//, '')

describe('upgrades (real containerd)', () => {
  it('an upgrade to an image that cannot be pulled is not Ready, kubectl wait does not pass, and the old container keeps serving over two back-off periods', async () => {
    writeFileSync(join(manifests, 'web.yaml'), web(BUSYBOX))
    await watchWithKubeconfig()
    // kubectl wait answers NotFound for a pod the API does not list yet: wait for it to be there.
    await eventually(async () => ((await kubectl('get', `pod/web-${NODE}`)).code === 0 ? true : undefined), 60_000, 'the pod in the API')
    const wait = await kubectl('wait', '--for=condition=Ready', `pod/web-${NODE}`, '--timeout=60s')
    expect(wait.code, wait.stderr).toBe(0)
    const before = (await find('web'))!
    const oldId = bare(before.status.containerStatuses?.[0]?.containerID)

    writeFileSync(join(manifests, 'web.yaml'), web('localhost:5000/busybox:no-such-tag', 'v2'))
    const failing = await eventually(async () => {
      const p = await find('web')
      const reason = p?.status.containerStatuses?.[0]?.state['waiting']?.reason
      return reason === 'ErrImagePull' || reason === 'ImagePullBackOff' ? p : undefined
    }, 30_000, 'the pull error to show')
    expect(failing.metadata.annotations?.['kubernetes.io/config.hash']).not.toBe(before.metadata.annotations?.['kubernetes.io/config.hash'])
    // kubeadm's check: the hash changed, then Ready. It must not pass.
    const notReady = await kubectl('wait', '--for=condition=Ready', `pod/web-${NODE}`, '--timeout=5s')
    expect(notReady.code).not.toBe(0)

    // Two pull back-off periods (10 s, then 20 s): the old container runs all along, the pod is
    // never Ready, and the status always says why.
    const reasons = new Set<string>()
    const end = Date.now() + 35_000
    while (Date.now() < end) {
      const p = (await find('web'))!
      const cs = p.status.containerStatuses?.[0]
      reasons.add(cs?.state['waiting']?.reason ?? 'not waiting')
      expect(cs?.ready).toBe(false)
      expect(runningTasks().has(oldId)).toBe(true)
      await new Promise((r) => setTimeout(r, 1000))
    }
    expect([...reasons].sort()).toEqual(['ErrImagePull', 'ImagePullBackOff'])
    const events = await kn(dirs, ['events', 'web'])
    expect(events.stdout).not.toMatch(/Killing/)

    // The fix: the edit is applied, Ready, and its restarts start at 0.
    writeFileSync(join(manifests, 'web.yaml'), web(BUSYBOX, 'v3'))
    const fixed = await eventually(async () => {
      const p = await find('web')
      const cs = p?.status.containerStatuses?.[0]
      return cs?.ready && bare(cs.containerID) !== oldId ? p : undefined
    }, 60_000, 'the fixed edit to be Ready')
    expect(fixed.status.containerStatuses?.[0]?.restartCount).toBe(0)
    expect(fixed.status.containerStatuses?.[0]?.lastState ?? {}).toEqual({})
    const ready = await kubectl('wait', '--for=condition=Ready', `pod/web-${NODE}`, '--timeout=30s')
    expect(ready.code, ready.stderr).toBe(0)
  })

  it('an annotation bump runs a finished Never pod again, its restarts from 0', async () => {
    const job = (bump: string): string =>
      `apiVersion: v1\nkind: Pod\nmetadata: {name: job, annotations: {run: "${bump}"}}\nspec:\n  restartPolicy: Never\n  containers:\n  - {name: main, image: ${BUSYBOX}, command: [sh, -c, "echo run ${bump}"]}\n`
    writeFileSync(join(manifests, 'job.yaml'), job('1'))
    await watchWithKubeconfig()
    const first = await eventually(async () => {
      const p = await find('job')
      return p?.status.phase === 'Succeeded' ? p : undefined
    }, 60_000, 'the job to succeed')
    writeFileSync(join(manifests, 'job.yaml'), job('2'))
    const second = await eventually(async () => {
      const p = await find('job')
      const cs = p?.status.containerStatuses?.[0]
      return p?.status.phase === 'Succeeded' && cs?.containerID !== first.status.containerStatuses?.[0]?.containerID ? p : undefined
    }, 60_000, 'the bumped job to run again')
    expect(second.status.containerStatuses?.[0]?.restartCount).toBe(0)
    expect((await kn(dirs, ['logs', 'job'])).stdout.trim()).toBe('run 2')
  })
})
