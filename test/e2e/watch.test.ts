// `kube-node watch` against a real containerd: manifest changes, container deaths, broken
// manifests, removal, URL sources, restarts of kube-node itself, foreign sandboxes and signals.
import {describe, expect, it} from 'vitest'
import {createServer, type Server} from 'node:http'
import {mkdirSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {ENDPOINT, NODE, ROOT, ctr, ctrContainersWithLabel, eventually, getPods, kn, makeDirs, manifestDir, podYaml, startWatch, type Daemon} from './support.js'

const dirs = makeDirs()
let daemon: Daemon | undefined
const manifests = manifestDir(dirs, async () => {
  if (daemon) await daemon.stop('SIGKILL')
  daemon = undefined
})
const POD_NAME = 'io.kubernetes.pod.name'
const quick = ['--file-check-frequency', '1s', '--http-check-frequency', '1s', '--port', '0', '--healthz-port', '0']

function write(name: string, text: string): void {
  writeFileSync(join(manifests, name), text)
}

function running(podName: string) {
  return async () => {
    const pod = (await getPods(dirs)).find((p) => p.metadata.name === `${podName}-${NODE}`)
    const cs = pod?.status.containerStatuses?.[0]
    return cs?.state['running'] ? {pod: pod!, cs} : undefined
  }
}

describe('kube-node watch (real containerd)', () => {
  it('adds, edits in place, survives a broken edit, and removes a pod', async () => {
    write('web.yaml', podYaml('web'))
    daemon = startWatch(dirs, [manifests, ...quick])
    const first = await eventually(running('web'), 30_000, 'web running')
    const sandboxes = ctrContainersWithLabel(POD_NAME, `web-${NODE}`).length
    expect(sandboxes).toBe(2)

    // Edit: the container is replaced, the sandbox (and so the pod IP) is kept.
    write('web.yaml', podYaml('web', {command: 'echo edited; while true; do sleep 1; done'}))
    const edited = await eventually(async () => {
      const r = await running('web')()
      return r && r.cs.containerID !== first.cs.containerID ? r : undefined
    }, 30_000, 'web replaced')
    expect(edited.pod.metadata.uid).toBe(first.pod.metadata.uid)

    // Broken edit: the last good version keeps running.
    write('web.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: main, image: ""}]\n')
    await new Promise((r) => setTimeout(r, 3000))
    const still = await running('web')()
    expect(still?.cs.containerID).toBe(edited.cs.containerID)
    expect(daemon.stderr()).toMatch(/web\.yaml.*image/)

    // Removal: the pod is stopped and its sandbox removed.
    rmSync(join(manifests, 'web.yaml'))
    await eventually(() => (ctrContainersWithLabel(POD_NAME, `web-${NODE}`).length === 0 ? true : undefined), 30_000, 'web removed')
  })

  it('restarts a container killed from outside, and backs off a crash loop', async () => {
    write('victim.yaml', podYaml('victim'))
    write('crasher.yaml', podYaml('crasher', {command: 'exit 1'}))
    daemon = startWatch(dirs, [manifests, ...quick])
    const before = await eventually(running('victim'), 30_000, 'victim running')
    const id = before.cs.containerID!.replace('containerd://', '')
    ctr(['tasks', 'kill', '-s', 'SIGKILL', id])
    const after = await eventually(async () => {
      const r = await running('victim')()
      return r && r.cs.restartCount === 1 ? r : undefined
    }, 15_000, 'victim restarted')
    expect(after.cs.containerID).not.toBe(before.cs.containerID)

    // The crasher restarts once at once, then waits out a growing back-off (10s, 20s, …).
    const crasher = await eventually(async () => {
      const pod = (await getPods(dirs)).find((p) => p.metadata.name === `crasher-${NODE}`)
      const cs = pod?.status.containerStatuses?.[0]
      return cs && cs.restartCount >= 1 ? cs : undefined
    }, 20_000, 'crasher restarted')
    expect(crasher.restartCount).toBeLessThanOrEqual(2)
    await new Promise((r) => setTimeout(r, 5000))
    const later = (await getPods(dirs)).find((p) => p.metadata.name === `crasher-${NODE}`)!.status.containerStatuses![0]!
    expect(later.restartCount).toBeLessThanOrEqual(2)
  })

  it('keeps the pods of a URL source that goes away', async () => {
    let body = podYaml('remote')
    let status = 200
    const server: Server = createServer((_req, res) => {
      res.statusCode = status
      res.end(status === 200 ? body : 'gone')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    const port = (server.address() as {port: number}).port
    try {
      daemon = startWatch(dirs, ['--manifest-url', `http://127.0.0.1:${port}/pods.yaml`, '--manifest-url-header', 'X-Token:secret-value-42', ...quick])
      const first = await eventually(running('remote'), 30_000, 'remote running')
      status = 500
      body = ''
      await new Promise((r) => setTimeout(r, 3000))
      expect((await running('remote')())?.cs.containerID).toBe(first.cs.containerID)
      expect(daemon.stderr()).not.toContain('secret-value-42')
    } finally {
      server.close()
    }
  })

  it('adopts its pods after kill -9 and restart: same container IDs, no duplicate sandboxes', async () => {
    write('steady.yaml', podYaml('steady'))
    daemon = startWatch(dirs, [manifests, ...quick])
    const before = await eventually(running('steady'), 30_000, 'steady running')
    await daemon.stop('SIGKILL')
    daemon = startWatch(dirs, [manifests, ...quick])
    await new Promise((r) => setTimeout(r, 4000))
    const after = await eventually(running('steady'), 10_000, 'steady still running')
    expect(after.cs.containerID).toBe(before.cs.containerID)
    expect(ctrContainersWithLabel(POD_NAME, `steady-${NODE}`)).toHaveLength(2)
  })

  it('leaves a sandbox it did not create alone', async () => {
    const {createGrpcRuntime} = (await import(join(ROOT, 'dist/cri/grpc/client.js'))) as typeof import('../../src/cri/grpc/client.js')
    const rt = createGrpcRuntime({runtimeEndpoint: ENDPOINT})
    const logDir = join(dirs.work, 'foreign-logs')
    mkdirSync(logDir, {recursive: true})
    const id = await rt.runtime.runPodSandbox({
      metadata: {name: 'foreign', uid: 'foreign-uid', namespace: 'default', attempt: 0},
      hostname: 'foreign',
      logDirectory: logDir,
      portMappings: [],
      labels: {[POD_NAME]: 'foreign', 'io.kubernetes.pod.uid': 'foreign-uid'},
      annotations: {},
      linux: {securityContext: {namespaceOptions: {network: 'POD', pid: 'CONTAINER', ipc: 'POD'}}},
    })
    try {
      daemon = startWatch(dirs, [manifests, ...quick])
      await new Promise((r) => setTimeout(r, 5000))
      expect((await rt.runtime.podSandboxStatus(id)).state).toBe('SANDBOX_READY')
    } finally {
      await rt.runtime.stopPodSandbox(id)
      await rt.runtime.removePodSandbox(id)
      rt.close()
    }
  })

  it('stops on SIGTERM with exit 0 and leaves pods running; a second instance is refused', async () => {
    write('calm.yaml', podYaml('calm'))
    daemon = startWatch(dirs, [manifests, ...quick])
    const before = await eventually(running('calm'), 30_000, 'calm running')
    const second = await kn(dirs, ['watch', manifests, ...quick])
    expect(second.code).toBe(1)
    expect(second.stderr).toMatch(/already running/)
    const started = Date.now()
    expect(await daemon.stop('SIGTERM')).toBe(0)
    daemon = undefined
    expect(Date.now() - started).toBeLessThan(8000)
    expect((await running('calm')())?.cs.containerID).toBe(before.cs.containerID)
  })
})
