// The volume source kinds of the v1 API, split by what kube-node can provide.

/** Node-local volumes and data defined in the manifests themselves. */
export const SUPPORTED_SOURCES = ['emptyDir', 'hostPath', 'configMap', 'secret', 'downwardAPI', 'projected'] as const

/** Sources that need the API server or a storage plugin. */
export const UNSUPPORTED_SOURCES = [
  'persistentVolumeClaim', 'ephemeral', 'csi', 'image', 'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs',
  'cinder', 'fc', 'flexVolume', 'flocker', 'gcePersistentDisk', 'gitRepo', 'glusterfs', 'iscsi', 'nfs',
  'photonPersistentDisk', 'portworxVolume', 'quobyte', 'rbd', 'scaleIO', 'storageos', 'vsphereVolume',
] as const

export const ALL_SOURCES: readonly string[] = [...SUPPORTED_SOURCES, ...UNSUPPORTED_SOURCES]

/** The source keys set on a volume object. */
export function presentSources(volume: object): string[] {
  return Object.entries(volume)
    .filter(([k, v]) => v !== undefined && v !== null && ALL_SOURCES.includes(k))
    .map(([k]) => k)
}
