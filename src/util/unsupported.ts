// Why a standalone node refuses a field: each sentence says what the field needs that a node
// without an API server (or without storage and device plugins) cannot have.

const NO_API_SERVER = 'which a standalone node does not have'
const NO_STORAGE_PLUGIN = 'kube-node runs no storage plugins: mount it on the host and use a hostPath volume'

const REASONS: Readonly<Record<string, string>> = {
  persistentVolumeClaim: `a claim is bound to a volume by the API server and its volume controllers, ${NO_API_SERVER}; use hostPath or emptyDir`,
  ephemeral: `a generic ephemeral volume is a PersistentVolumeClaim the API server creates for the pod, ${NO_API_SERVER}; use emptyDir`,
  csi: 'CSI volumes need a CSI driver registered with a kubelet plugin manager, which kube-node does not run; mount it on the host and use a hostPath volume',
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
  stopSignal: 'kube-node does not send the CRI stop signal (the kubelet\'s ContainerStopSignals feature is alpha, and containerd 1.6 ignores the field); set STOPSIGNAL in the image instead',
  runtimeClassName: `a RuntimeClass, which maps the name to a runtime handler, is an object of the API server, ${NO_API_SERVER}; configure the runtime's default handler instead`,
  hostnameOverride: 'kube-node does not set the sandbox hostname from it (an alpha field); use spec.hostname',
  cgroupOptions: 'a container\'s own cgroup mount mode (CgroupOptions, KEP-5474, alpha in Kubernetes v1.38) needs kubelet-managed pod cgroups and a runtime that advertises cgroup mount modes over CRI; kube-node creates no pod cgroups and its CRI API has no such field',
  podLevelLimits: 'pod-level limits are enforced on the pod\'s cgroup, which kube-node does not create (its sandboxes run under the runtime\'s default cgroup parent); set limits on each container instead',
}

/** Why a field is refused, by its name (the last path segment); the field table (manifest/field-support.ts) reads it too. */
export function refusalReason(key: string): string {
  return Object.hasOwn(REASONS, key) ? REASONS[key]! : NO_STORAGE_PLUGIN
}

/** `is not supported: <why>` for a field a standalone node cannot provide (its last path segment). */
export function unsupported(field: string): string {
  return `is not supported: ${refusalReason(field.slice(field.lastIndexOf('.') + 1))}`
}

