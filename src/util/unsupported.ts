// Why a standalone node refuses a field: each sentence says what the field needs that a node
// without an API server (or without storage and device plugins) cannot have.

const NO_API_SERVER = 'which a standalone node does not have'
const NO_STORAGE_PLUGIN = 'kube-node runs no storage plugins: mount it on the host and use a hostPath volume'

const REASONS: Readonly<Record<string, string>> = {
  persistentVolumeClaim: `a claim is bound to a volume by the API server and its volume controllers, ${NO_API_SERVER}; use hostPath or emptyDir`,
  ephemeral: `a generic ephemeral volume is a PersistentVolumeClaim the API server creates for the pod, ${NO_API_SERVER}; use emptyDir`,
  csi: 'CSI volumes need a CSI driver registered with a kubelet plugin manager, which kube-node does not run; mount it on the host and use a hostPath volume',
  image: 'image volumes need a runtime that mounts OCI images through the CRI (containerd 2.1 or later), which kube-node does not ask for yet; copy the files into an emptyDir from an init container instead',
  gitRepo: 'gitRepo volumes were removed from the kubelet for running git as root; clone in an init container into an emptyDir instead',
  serviceAccountToken: `service account tokens are issued by the API server, ${NO_API_SERVER}`,
  clusterTrustBundle: `ClusterTrustBundles are objects of the API server, ${NO_API_SERVER}`,
  podCertificate: `pod certificates are signed through the API server, ${NO_API_SERVER}`,
  resourceClaims: `resource claims are allocated through the API server and DRA drivers, ${NO_API_SERVER}`,
  claims: `resource claims are allocated through the API server and DRA drivers, ${NO_API_SERVER}`,
  ephemeralContainers: `ephemeral containers are added to a running pod through the API server, ${NO_API_SERVER}`,
  volumeDevices: 'raw block devices come from PersistentVolumeClaims, which need an API server',
  serviceAccountName: 'a static pod cannot reference a ServiceAccount (the kubelet refuses it too)',
  serviceAccount: 'a static pod cannot reference a ServiceAccount (the kubelet refuses it too)',
}

/** `is not supported: <why>` for a field a standalone node cannot provide (its last path segment). */
export function unsupported(field: string): string {
  const key = field.slice(field.lastIndexOf('.') + 1)
  const reason = Object.hasOwn(REASONS, key) ? REASONS[key] : NO_STORAGE_PLUGIN
  return `is not supported: ${reason}`
}

