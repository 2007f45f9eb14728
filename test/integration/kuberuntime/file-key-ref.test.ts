// fileKeyRef through the whole core over the fake CRI: an init container "writes" an env file
// into the emptyDir host directory the runtime was given for it (as a real one would), then the
// regular containers get their variables from it when they are created. A missing required key
// fails only that container, with the kubelet's CreateContainerConfigError; its siblings start.
import {mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {createNode, type KubeNode} from '../../../src/node/create-node.js'
import {runPods} from '../../../src/services/run.js'
import {loadStaticPods} from '../../../src/manifest/load.js'
import {EMPTY_OBJECT_STORE} from '../../../src/manifest/object-store.js'
import {SyncLoop} from '../../../src/loop/sync-loop.js'
import {silentLogger} from '../../../src/util/logger.js'
import {FakeClock} from '../../support/fake-clock.js'
import {FakeRuntime} from '../../support/fake-runtime.js'
import {testNodeConfig} from '../../support/node-config.js'
import {diskIO} from '../../support/disk-io.js'

const IMAGE = 'localhost:5000/busybox:1.36'

const MANIFEST = `apiVersion: v1
kind: Pod
metadata:
  name: envfile
spec:
  restartPolicy: Never
  initContainers:
  - name: write-env
    image: ${IMAGE}
    command: ["sh", "-c", "printf 'DB_ADDRESS=db:5432\\\\nEMPTY=\\\\n' > /data/config.env"]
    volumeMounts:
    - {name: config, mountPath: /data}
  containers:
  - name: app
    image: ${IMAGE}
    command: ["sh", "-c", "echo $DB_ADDRESS"]
    env:
    - name: DB_ADDRESS
      valueFrom: {fileKeyRef: {volumeName: config, path: config.env, key: DB_ADDRESS}}
    - name: URL
      value: pg://$(DB_ADDRESS)/app
    - name: MAYBE
      valueFrom: {fileKeyRef: {volumeName: config, path: config.env, key: NOT_THERE, optional: true}}
    - name: EMPTY
      valueFrom: {fileKeyRef: {volumeName: config, path: config.env, key: EMPTY}}
  - name: strict
    image: ${IMAGE}
    command: ["true"]
    env:
    - name: NEEDED
      valueFrom: {fileKeyRef: {volumeName: config, path: config.env, key: NOT_THERE}}
  volumes:
  - name: config
    emptyDir: {}
`

describe('fileKeyRef over the fake CRI', () => {
  let work: string
  let fake: FakeRuntime
  let clock: FakeClock
  let node: KubeNode
  let envFile: string

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-filekey-'))
    fake = new FakeRuntime({images: ['localhost:5000/pause:3.9', IMAGE]})
    clock = new FakeClock(fake)
    envFile = 'DB_ADDRESS=db:5432\nEMPTY=\n'
    // The init container's work: write into the host directory the runtime mounts at /data, then exit 0.
    const start = fake.startContainer.bind(fake)
    fake.startContainer = async (id: string) => {
      await start(id)
      const c = fake.containers.get(id)!
      if (c.status.metadata.name !== 'write-env') return
      const data = c.status.mounts.find((m) => m.containerPath === '/data')!
      writeFileSync(join(data.hostPath, 'config.env'), envFile)
      fake.exitContainer(id, 0)
    }
    const config = testNodeConfig(work, {nodeName: 'node1'})
    node = await createNode(config, silentLogger, {runtime: fake, clock})
  })

  afterEach(() => rmSync(work, {recursive: true, force: true}))

  const envOf = (name: string) => {
    const call = fake.callsOf('CreateContainer').find((c) => (c.args[1] as {metadata: {name: string}}).metadata.name === name)
    return (call?.args[1] as {envs: {key: string; value: string}[]} | undefined)?.envs
  }

  it('gives the variables from the file; a missing required key fails only its container', async () => {
    const file = join(work, 'envfile.yaml')
    writeFileSync(file, MANIFEST)
    const [r] = await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})

    expect(envOf('app')).toEqual([
      {key: 'DB_ADDRESS', value: 'db:5432'},
      {key: 'URL', value: 'pg://db:5432/app'},
      {key: 'EMPTY', value: ''},
    ])
    // The sibling was never created; its waiting reason and message are the kubelet's.
    expect(envOf('strict')).toBeUndefined()
    expect(r!.outcome).toBe('failed')
    expect(r!.reason).toBe('container "strict" CreateContainerConfigError: couldn\'t find key NOT_THERE in env file "config.env" in volume "config"')
    const strict = r!.status.containerStatuses?.find((s) => s.name === 'strict')
    expect(strict?.state?.waiting).toEqual({reason: 'CreateContainerConfigError', message: 'couldn\'t find key NOT_THERE in env file "config.env" in volume "config"'})
    expect(r!.status.containerStatuses?.find((s) => s.name === 'app')?.state?.running).toBeDefined()
  })

  it('an env file the init container planted as a link fails the container, reading nothing', async () => {
    const secret = join(work, 'host-secret')
    writeFileSync(secret, 'DB_ADDRESS=stolen\n')
    const start = fake.startContainer.bind(fake)
    fake.startContainer = async (id: string) => {
      const c = fake.containers.get(id)!
      if (c.status.metadata.name === 'write-env') {
        const data = c.status.mounts.find((m) => m.containerPath === '/data')!
        symlinkSync(secret, join(data.hostPath, 'config.env'))
        await start(id)
        fake.exitContainer(id, 0)
        return
      }
      await start(id)
    }
    const file = join(work, 'envfile.yaml')
    writeFileSync(file, MANIFEST.replace(/ {2}- name: strict\n[\s\S]*?(?=^ {2}volumes:)/m, ''))
    const [r] = await runPods(node, [file], {wait: 'running', timeoutMs: 60_000})
    expect(envOf('app')).toBeUndefined()
    expect(r!.outcome).toBe('failed')
    expect(r!.reason).toMatch(/^container "app" CreateContainerConfigError: couldn't read env file for fileKeyRef "config.env" in volume "config": .*symbolic link/)
    expect(r!.reason).not.toContain('stolen')
  })

  it('under watch, a missing required key is retried after the error back-off, and starts once the file has it', async () => {
    envFile = 'DB_ADDRESS=db:5432\n'
    const file = join(work, 'envfile.yaml')
    writeFileSync(file, MANIFEST.replace(/ {2}- name: strict\n[\s\S]*?(?=^ {2}volumes:)/m, '').replace('key: EMPTY}', 'key: LATE}'))
    const sp = (await loadStaticPods([file], {nodeName: 'node1', io: diskIO})).pods[0]!
    const loop = new SyncLoop({sync: node.sync, logger: silentLogger, clock, sourcesReady: () => true, objects: () => EMPTY_OBJECT_STORE}, {random: () => 0})
    try {
      loop.handleUpdates([{op: 'ADD', pods: [sp]}])
      await loop.idle()
      // The init container ran and exited (PLEG reports it); that sync tries the app and fails on the key.
      const init = [...fake.containers.values()].find((c) => c.status.metadata.name === 'write-env')!
      loop.handleLifecycleEvents([{uid: sp.pod.metadata.uid, type: 'ContainerDied', containerId: init.status.id}])
      await loop.idle()
      const waiting = () => loop.statuses()[0]!.status?.containerStatuses?.find((s) => s.name === 'app')?.state?.waiting
      expect(waiting()).toEqual({reason: 'CreateContainerConfigError', message: 'couldn\'t find key LATE in env file "config.env" in volume "config"'})
      expect(envOf('app')).toBeUndefined()

      // Not before the back-off: a tick within it changes nothing.
      clock.advance(1_000)
      loop.tick()
      await loop.idle()
      expect(envOf('app')).toBeUndefined()

      // Someone with access to the volume completes the file; after the back-off the container starts.
      const dir = init.status.mounts.find((m) => m.containerPath === '/data')!.hostPath
      writeFileSync(join(dir, 'config.env'), 'DB_ADDRESS=db:5432\nLATE=finally\n')
      clock.advance(10_000)
      loop.tick()
      await loop.idle()
      expect(envOf('app')).toContainEqual({key: 'EMPTY', value: 'finally'})
      expect(loop.statuses()[0]!.status?.containerStatuses?.find((s) => s.name === 'app')?.state?.running).toBeDefined()
    } finally {
      await loop.stop()
    }
  })
})
