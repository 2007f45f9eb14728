// Every volume kind kube-node provides, and the lookups the rest of kube-node uses. A new kind:
// one file in kinds/ and one line here.
import type {Volume} from '../api/types.js'
import type {VolumeSource} from '../kuberuntime/container-config.js'
import {ConfigError} from '../kuberuntime/errors.js'
import type {VolumeKind} from './kind.js'
import type {ProjectedFile, Projection, ProjectionContext} from './projection.js'
import {configMapVolume} from './kinds/config-map.js'
import {downwardAPIVolume} from './kinds/downward-api.js'
import {emptyDirVolume} from './kinds/empty-dir.js'
import {hostPathVolume} from './kinds/host-path.js'
import {projectedVolume} from './kinds/projected.js'
import {secretVolume} from './kinds/secret.js'

// Order matters only for emptyDir, which also claims a volume that names no source.
export const VOLUME_KINDS: readonly VolumeKind[] = [hostPathVolume, configMapVolume, secretVolume, downwardAPIVolume, projectedVolume, emptyDirVolume]

/** The kind a Volume field names (`configMap`, …), or undefined for kinds kube-node does not provide. */
export function volumeKindNamed(name: string): VolumeKind | undefined {
  return VOLUME_KINDS.find((k) => k.name === name)
}

/** The kind of a volume, or undefined for kinds kube-node does not provide. */
export function volumeKind(volume: Volume): VolumeKind | undefined {
  return VOLUME_KINDS.find((k) => k.matches(volume))
}

/** The host directory backing a volume; undefined for kinds kube-node does not provide. */
export function volumeHostPath(rootDir: string, uid: string, volume: Volume): string | undefined {
  return volumeKind(volume)?.hostDir(rootDir, uid, volume)
}

/** What container configs mount for a pod's volumes (kuberuntime's VolumeSource port). */
export function volumeSources(rootDir: string, uid: string): (volume: Volume) => VolumeSource | undefined {
  return (volume) => {
    const kind = volumeKind(volume)
    return kind && {hostPath: kind.hostDir(rootDir, uid, volume), readOnly: kind.readOnly}
  }
}

/** The files of a volume whose data kube-node computes; undefined for hostPath and emptyDir. */
export function projectVolume(volume: Volume, ctx: ProjectionContext): Projection | undefined {
  return volumeKind(volume)?.project?.(volume, ctx)
}

/** Like projectVolume, but a projection error throws ConfigError naming the volume. */
export function projectVolumeOrThrow(volume: Volume, ctx: ProjectionContext): ProjectedFile[] | undefined {
  const p = projectVolume(volume, ctx)
  if (p === undefined) return undefined
  if ('error' in p) throw new ConfigError(`volume "${volume.name}": ${p.error}`)
  return p.files
}
