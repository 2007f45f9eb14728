// Mounts with a subPath (or subPathExpr) are pointed at the path the host resolved safely inside
// the volume (HostFs.resolveInside: components walked one by one, links followed only while they
// stay inside), so a link a container planted cannot redirect the mount.
import type {Mount} from '../cri/api.js'
import type {Container, Pod} from '../api/types.js'
import {mountSubPath} from '../kuberuntime/container-config.js'
import type {HostFs} from '../host/port.js'
import {volumeHostPath} from './registry.js'

/** Points every mount with a subPath (or subPathExpr) at its safely resolved host path. */
export async function secureSubPathMounts(fs: HostFs, pod: Pod, container: Container, rootDir: string, mounts: Mount[], vars: ReadonlyMap<string, string>): Promise<void> {
  const uid = pod.metadata?.uid ?? ''
  for (const [i, vm] of (container.volumeMounts ?? []).entries()) {
    if (!vm.subPath && !vm.subPathExpr) continue
    const field = `container ${container.name}, volumeMounts[${i}] (${vm.name})`
    const sub = mountSubPath(vm, vars, field)
    const volume = (pod.spec?.volumes ?? []).find((v) => v.name === vm.name)
    const base = volume ? volumeHostPath(rootDir, uid, volume) : undefined
    const mount = mounts.find((m) => m.containerPath === vm.mountPath)
    if (!sub || base === undefined || !mount) continue
    mount.hostPath = await fs.resolveInside(base, sub, field)
  }
}
