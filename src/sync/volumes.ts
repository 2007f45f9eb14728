// Prepares a container's volumes on the host before it is created: emptyDir directories under
// the pod's data dir.
import type {Container, StaticPod} from '../api/types.js'
import type {HostFs} from './host-fs.js'
import {emptyDirPath} from '../kuberuntime/naming.js'

export interface VolumeDeps {
  fs: HostFs
  rootDir: string
}

export async function prepareVolumes(deps: VolumeDeps, sp: StaticPod, container: Container): Promise<void> {
  const uid = sp.pod.metadata.uid
  for (const v of sp.pod.spec.volumes ?? []) {
    if (!(container.volumeMounts ?? []).some((m) => m.name === v.name)) continue
    if (v.emptyDir) await deps.fs.mkdirp(emptyDirPath(deps.rootDir, uid, v.name), 0o777)
  }
}
