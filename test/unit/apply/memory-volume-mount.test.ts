// A volume that must live in memory (secret, projected, downwardAPI, emptyDir medium Memory) and
// cannot get its tmpfs fails the container before CreateContainer, with the reason a user sees in
// `get`/`describe` and the failure report, the kubelet's FailedMount event, and nothing of it is
// written to the disk.
import {describe, expect, it} from 'vitest'
import type {StaticPod, Volume} from '../../../src/api/types.js'
import {startContainer} from '../../../src/apply/start-container.js'
import type {StartDeps} from '../../../src/apply/start-container.js'
import {buildSandboxConfig} from '../../../src/kuberuntime/sandbox-config.js'
import {podDataDir} from '../../../src/kuberuntime/naming.js'
import {createObjectStore} from '../../../src/manifest/object-store.js'
import {silentLogger} from '../../../src/util/logger.js'
import {FakeClock} from '../../support/fake-clock.js'
import {FakeHostFs} from '../../support/fake-host-fs.js'
import {FakeRuntime} from '../../support/fake-runtime.js'
import {HOST_DNS, makeContainer, makeStaticPod, UID} from '../../support/pods.js'

const ROOT = '/var/lib/kube-node'
const LOGS = '/var/log/pods'
const objects = createObjectStore([], [{metadata: {name: 'creds', namespace: 'default'}, data: {password: Buffer.from('s3cr3t').toString('base64')}}])

/** A host where mount(8) refuses, as for a kube-node that is not root. */
class NoTmpfsHostFs extends FakeHostFs {
  override async mountTmpfs(): Promise<void> {
    throw new Error('mount: only root can use "--types" option')
  }
}

describe('a memory-backed volume without its tmpfs', () => {
  it.each<[string, Volume]>([
    ['secret', {name: 'vol', secret: {secretName: 'creds'}}],
    ['projected', {name: 'vol', projected: {sources: [{secret: {name: 'creds'}}]}}],
    ['downwardAPI', {name: 'vol', downwardAPI: {items: [{path: 'name', fieldRef: {fieldPath: 'metadata.name'}}]}}],
    ['emptyDir medium Memory', {name: 'vol', emptyDir: {medium: 'Memory', sizeLimit: '64Mi'}}],
  ])('%s: CreateContainerConfigError naming the volume, no container, nothing on disk', async (_kind, volume) => {
    const runtime = new FakeRuntime({images: ['docker.io/library/nginx:1.27']})
    const fs = new NoTmpfsHostFs()
    const events: string[] = []
    const sp: StaticPod = makeStaticPod((p) => {
      p.spec.volumes = [volume]
      p.spec.containers = [makeContainer({name: 'app', image: 'nginx:1.27', volumeMounts: [{name: 'vol', mountPath: '/v'}]})]
    })
    const deps: StartDeps = {
      runtime,
      images: runtime,
      fs,
      logger: silentLogger,
      clock: new FakeClock(runtime),
      rootDir: ROOT,
      podLogsDir: LOGS,
      clusterDomain: 'cluster.local',
      events: {emit: (_o, type, reason, message) => void events.push(`${type} ${reason} ${message}`)},
    }
    const config = buildSandboxConfig(sp, {attempt: 0, podLogsDir: LOGS, hostDns: HOST_DNS, clusterDNS: [], clusterDomain: 'cluster.local'})
    const sandbox = {id: await runtime.runPodSandbox(config), config, ip: '10.88.0.9'}

    const out = await startContainer(deps, sp.pod, sp.facts, {type: 'StartContainer', name: 'app', containerType: 'regular', restartCount: 0, reason: 'not started'}, sandbox, objects)

    expect(out.started).toBe(false)
    expect(out.failure).toMatchObject({container: 'app', reason: 'CreateContainerConfigError', permanent: true})
    expect(out.failure?.message).toMatch(/^volume "vol": MountVolume\.SetUp failed: it must be memory-backed and a tmpfs cannot be mounted on \/var\/lib\/kube-node\/pods\/.*: mount: only root/)
    expect(events).toEqual([`Warning FailedMount ${out.failure?.message}`, `Warning Failed Error: ${out.failure?.message}`])
    expect(runtime.callsOf('CreateContainer')).toEqual([])
    const volumes = `${podDataDir(ROOT, UID)}/volumes/`
    expect([...fs.files.keys()].filter((f) => f.startsWith(volumes))).toEqual([])
  })
})
