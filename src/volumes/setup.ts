// Makes a container's volumes ready before it is created, as the kubelet's volume manager does
// before SyncPod, and keeps data volumes fresh on resync. Each volume's kind does the work.
import type {Container, StaticPod} from '../api/types.js'
import {errorMessage} from '../util/errors.js'
import type {VolumeDeps} from './kind.js'
import {applyFsGroup} from './ownership.js'
import {volumeKind} from './registry.js'

/**
 * Makes every volume the container mounts ready on the host. Throws ConfigError naming the
 * volume when a hostPath has the wrong type or a required ConfigMap, Secret or key is missing
 * (the executor reports CreateContainerConfigError). Safe to call again: files are rewritten
 * only when their content changed, and a tmpfs is mounted once.
 */
export async function prepareVolumes(deps: VolumeDeps, pod: StaticPod['pod'], container: Container): Promise<void> {
  const uid = pod.metadata.uid
  const used = new Set((container.volumeMounts ?? []).map((m) => m.name))
  for (const v of pod.spec.volumes ?? []) {
    const kind = used.has(v.name) ? volumeKind(v) : undefined
    if (!kind) continue
    const dir = kind.hostDir(deps.rootDir, uid, v)
    await kind.prepare(deps, pod, v, dir)
    await applyFsGroup(deps, pod, kind, v, dir)
  }
}

/**
 * Rewrites the data volumes (configMap, secret, downwardAPI, projected) of a running pod when
 * their ConfigMaps or Secrets changed, as the kubelet's periodic volume remount does. Problems
 * are logged, not thrown: the containers keep the files they have.
 */
export async function refreshProjectedVolumes(deps: VolumeDeps, pod: StaticPod['pod']): Promise<void> {
  const spec = pod.spec
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    const projected = (c.volumeMounts ?? []).filter((m) => {
      const v = (spec.volumes ?? []).find((x) => x.name === m.name)
      return v !== undefined && volumeKind(v)?.project !== undefined
    })
    if (projected.length === 0) continue
    try {
      await prepareVolumes(deps, pod, {...c, volumeMounts: projected})
    } catch (err) {
      deps.logger?.warn('Cannot refresh volume', {pod: pod.metadata.name, container: c.name, err: errorMessage(err)})
    }
  }
}
