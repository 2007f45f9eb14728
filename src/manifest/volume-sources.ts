// The volume source kinds of the v1 API, split by what kube-node can provide.
import {VOLUME_KINDS} from '../volumes/registry.js'

/** Node-local volumes and data defined in the manifests themselves: the kinds of volumes/registry.ts. */
export const SUPPORTED_SOURCES: readonly string[] = VOLUME_KINDS.map((k) => k.name)

/** Sources that need the API server or a storage plugin. */
export const UNSUPPORTED_SOURCES = [
  'persistentVolumeClaim', 'ephemeral', 'csi', 'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs',
  'cinder', 'fc', 'flexVolume', 'flocker', 'gcePersistentDisk', 'gitRepo', 'glusterfs', 'iscsi', 'nfs',
  'photonPersistentDisk', 'portworxVolume', 'quobyte', 'rbd', 'scaleIO', 'storageos', 'vsphereVolume',
] as const

/** Sources valid in a manifest whose support depends on the runtime: checked at run/watch time (decide/runtime-support.ts). */
export const RUNTIME_SOURCES = ['image'] as const

export const ALL_SOURCES: readonly string[] = [...SUPPORTED_SOURCES, ...RUNTIME_SOURCES, ...UNSUPPORTED_SOURCES]

/** The source keys set on a volume object. */
export function presentSources(volume: object): string[] {
  return Object.entries(volume)
    .filter(([k, v]) => v !== undefined && v !== null && ALL_SOURCES.includes(k))
    .map(([k]) => k)
}
