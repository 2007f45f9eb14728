// The kubelet's behaviour and words, through the shipped CLI on containerd: a container killed by
// its liveness probe has a Killing event that names the probe, as `kube-node events` prints it;
// a RestartAllContainers rule restarts the whole pod in place, its init container first.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {spawn} from 'node:child_process'
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {BUSYBOX, ENDPOINT, eventually, knArgs, knAs, makeDirs, writeManifest} from './support.js'

// This file's own node: its pods are never another file's, and it removes only its own.
const NODE = 'e2e-msgs'
const dirs = makeDirs()
const manifests = join(dirs.work, 'manifests')
const kn = (args: string[]): ReturnType<typeof knAs> => knAs(NODE, dirs, args)

// Healthy for 3 s, then its liveness probe fails: the kubelet kills and restarts it.
const LIVENESS = `apiVersion: v1
kind: Pod
metadata: {name: liveness}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: [sh, -c, "sleep 3; touch /tmp/die; while true; do sleep 1; done"]
    livenessProbe: {exec: {command: [sh, -c, "test ! -f /tmp/die"]}, periodSeconds: 1, failureThreshold: 1}
`

// The worker exits 42 after 2 s: its rule restarts every container, the init container first.
const RESTART_ALL = `apiVersion: v1
kind: Pod
metadata: {name: restart-all}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  initContainers:
  - name: setup
    image: ${BUSYBOX}
    command: [sh, -c, "true"]
  containers:
  - name: worker
    image: ${BUSYBOX}
    command: [sh, -c, "sleep 2; exit 42"]
    restartPolicy: Never
    restartPolicyRules:
    - action: RestartAllContainers
      exitCodes: {operator: In, values: [42]}
  - name: helper
    image: ${BUSYBOX}
    command: [sh, -c, "while true; do sleep 1; done"]
`

interface PodJson {
  metadata: {name: string}
  status: {initContainerStatuses?: {name: string; restartCount: number}[]; containerStatuses?: {name: string; restartCount: number}[]}
}

describe('kubelet messages (containerd)', () => {
  let stopWatch: (() => Promise<void>) | undefined
  const files: string[] = []

  beforeAll(() => {
    mkdirSync(manifests, {recursive: true})
    files.push(writeManifest(manifests, 'liveness.yaml', LIVENESS), writeManifest(manifests, 'restart-all.yaml', RESTART_ALL))
  })

  afterAll(async () => {
    await stopWatch?.()
    for (const f of files) await kn(['down', '-f', f])
    dirs.cleanup()
  })

  it("a liveness kill's Killing event names the probe", async () => {
    const child = spawn(process.execPath, knArgs(dirs, ['watch', manifests, '--file-check-frequency', '1s', '--port', '0', '--healthz-port', '0'], ENDPOINT, NODE), {
      env: {...process.env, NO_COLOR: '1'},
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    child.stderr.resume()
    const exited = new Promise((r) => child.on('exit', r))
    stopWatch = async () => {
      child.kill('SIGTERM')
      await exited
    }
    const events = await eventually(async () => {
      const r = await kn(['events', 'liveness'])
      return /Killing/.test(r.stdout) ? r.stdout : undefined
    }, 60_000, 'a Killing event for the liveness pod')
    expect(events).toMatch(/Warning +Unhealthy +pod\/liveness-e2e-msgs +Liveness probe failed/)
    expect(events).toMatch(/Normal +Killing +pod\/liveness-e2e-msgs +Container main failed liveness probe, will be restarted/)
    expect(events).not.toMatch(/Stopping container main/)
  })

  it('RestartAllContainers: the exit 42 restarts every container in place, the init container too', async () => {
    const counts = await eventually(async () => {
      const r = await kn(['get', 'pods', 'restart-all', '-o', 'json'])
      const parsed = JSON.parse(r.stdout) as PodJson | {items: PodJson[]}
      const pod = 'items' in parsed ? parsed.items[0] : parsed
      if (!pod) return undefined
      const all = [...(pod.status.initContainerStatuses ?? []), ...(pod.status.containerStatuses ?? [])]
      const byName = Object.fromEntries(all.map((c) => [c.name, c.restartCount]))
      return all.length === 3 && all.every((c) => c.restartCount >= 1) ? byName : undefined
    }, 60_000, 'every container of restart-all restarted')
    expect(Object.keys(counts).sort()).toEqual(['helper', 'setup', 'worker'])
  })
})
