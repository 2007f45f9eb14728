// Which volumes get the pod's fsGroup, and how far (over the in-memory host): emptyDir its
// directory only, data volumes all they hold, hostPath never; nothing without an fsGroup.
import {describe, expect, it} from 'vitest'
import type {Volume} from '../../../src/api/types.js'
import {configMapVolumePath, emptyDirPath} from '../../../src/kuberuntime/naming.js'
import {createObjectStore} from '../../../src/manifest/object-store.js'
import {prepareVolumes} from '../../../src/volumes/setup.js'
import {FakeHostFs} from '../../support/fake-host-fs.js'
import {makeContainer, makeStaticPod, UID} from '../../support/pods.js'

const ROOT = '/var/lib/kube-node'
const VOLUMES: Volume[] = [
  {name: 'scratch', emptyDir: {}},
  {name: 'conf', configMap: {name: 'cfg'}},
  {name: 'host', hostPath: {path: '/srv/data'}},
]

async function prepare(fsGroup: number | undefined): Promise<FakeHostFs> {
  const fs = new FakeHostFs()
  await fs.mkdirp('/srv/data', 0o755)
  const sp = makeStaticPod((p) => {
    p.spec.volumes = VOLUMES
    p.spec.containers = [makeContainer({volumeMounts: VOLUMES.map((v) => ({name: v.name, mountPath: `/${v.name}`}))})]
    if (fsGroup !== undefined) p.spec.securityContext = {fsGroup}
  })
  const objects = createObjectStore([{metadata: {name: 'cfg', namespace: 'default'}, data: {key: 'v'}}], [])
  await prepareVolumes({fs, rootDir: ROOT, objects}, sp.pod, sp.pod.spec.containers[0]!)
  return fs
}

describe('fsGroup ownership by volume kind', () => {
  it('gives emptyDir (its directory) and configMap (all it holds) to the group, never hostPath', async () => {
    const fs = await prepare(2000)
    const scratch = emptyDirPath(ROOT, UID, 'scratch')
    const conf = configMapVolumePath(ROOT, UID, 'conf')
    expect(fs.calls.filter((c) => c.startsWith('setGroupOwnership'))).toEqual([`setGroupOwnership ${scratch}`, `setGroupOwnership ${conf}`])
    expect(await fs.stat(scratch)).toEqual({type: 'directory', size: 0, mode: 0o2777, gid: 2000})
    expect(await fs.stat(`${conf}/key`)).toEqual({type: 'file', size: 1, mode: 0o644, gid: 2000})
    expect((await fs.stat('/srv/data'))?.gid).toBe(0)
  })

  it('changes nothing without an fsGroup', async () => {
    const fs = await prepare(undefined)
    expect(fs.calls.filter((c) => c.startsWith('setGroupOwnership'))).toEqual([])
    expect((await fs.stat(emptyDirPath(ROOT, UID, 'scratch')))?.mode).toBe(0o777)
  })
})
