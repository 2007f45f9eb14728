// What kube-node does with every field of the v1 Pod, one record per field family: honoured (as
// the kubelet does it), honoured when the runtime or host can (checked at run/watch time, the pod
// fails with the reason otherwise), refused by validation (with the sentence why), ignored as the
// kubelet ignores it for a static pod already bound to its node, or a known gap (accepted, not yet
// honoured; README "Known gaps"). test/unit/manifest/field-support.test.ts walks the generated
// schema and fails for a field without a record, so a field of a newer Kubernetes never slips
// through unnoticed. Pure data and a lookup.
import {refusalReason} from '../util/unsupported.js'

export type Support = 'honoured' | 'runtime' | 'refused' | 'ignored' | 'gap'

export interface FieldSupport {
  /**
   * A field path of the v1 Pod, `[]` standing for any list item or map key; the record covers
   * every field under it unless a longer record says otherwise. `spec.containers[]` also stands
   * for `spec.initContainers[]` (the same type, handled alike).
   */
  path: string
  support: Support
  /** How kube-node honours it (and where), or why it refuses or ignores it: one sentence. */
  why: string
}

const honoured = (path: string, why: string): FieldSupport => ({path, support: 'honoured', why})
const runtime = (path: string, why: string): FieldSupport => ({path, support: 'runtime', why})
const ignored = (path: string, why: string): FieldSupport => ({path, support: 'ignored', why})
// No field is a 'gap' any more (the README's "Known gaps" says none); a new one would be
// written as {path, support: 'gap', why} and listed there.
/** A refusal's sentence is the one validation reports (util/unsupported.ts), keyed by the last segment. */
const refused = (path: string, key = path.slice(path.lastIndexOf('.') + 1).replace('[]', '')): FieldSupport =>
  ({path, support: 'refused', why: refusalReason(key)})

const SCHEDULING = 'read only by the scheduler; a static pod is already bound to the node that reads it, and the kubelet ignores it too'
const SERVER_SET = 'set by the API server, which a standalone node does not have; the kubelet ignores it in a static pod too'
const CHECKED_AT_RUN = 'checked against the CRI runtime\'s Status features at run/watch time; the pod fails with the reason when the runtime lacks it'
const C = 'spec.containers[]'
const SC = `${C}.securityContext`
const PSC = 'spec.securityContext'
const V = 'spec.volumes[]'

/** In-tree volume plugins: a standalone node runs none of them. */
const IN_TREE_VOLUMES = [
  'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'fc', 'flexVolume', 'flocker', 'gcePersistentDisk',
  'glusterfs', 'iscsi', 'nfs', 'photonPersistentDisk', 'portworxVolume', 'quobyte', 'rbd', 'scaleIO', 'storageos', 'vsphereVolume',
]

export const FIELD_SUPPORT: readonly FieldSupport[] = [
  // ---- the object and its metadata ----
  honoured('apiVersion', 'must be v1 (decode.ts)'),
  honoured('kind', 'must be Pod, or a List/PodList of them (decode.ts)'),
  honoured('metadata.name', 'the pod is named <name>-<node> (defaults.ts)'),
  honoured('metadata.namespace', 'default when empty (defaults.ts)'),
  honoured('metadata.uid', 'kept when set, else derived from node, namespace and name (defaults.ts)'),
  honoured('metadata.labels', 'copied onto the sandbox with the kubelet\'s own labels (sandbox-config.ts)'),
  honoured('metadata.annotations', 'copied onto the sandbox; see ANNOTATION_SUPPORT for the ones kube-node reads'),
  ignored('metadata.generateName', 'the API server makes a name from it; a static pod must have metadata.name'),
  ...['creationTimestamp', 'deletionGracePeriodSeconds', 'deletionTimestamp', 'finalizers', 'generation', 'managedFields',
    'ownerReferences', 'resourceVersion', 'selfLink'].map((f) => ignored(`metadata.${f}`, SERVER_SET)),
  ignored('status', 'the status is computed from the runtime, as the kubelet does (status/generate); a manifest\'s status means nothing'),

  // ---- placement: admission, or the scheduler's alone ----
  ignored('spec.nodeName', 'replaced by the node\'s own name, as the kubelet\'s static-pod defaulting does (defaults.ts)'),
  honoured('spec.nodeSelector', 'admission rejects the pod when the node\'s labels do not match, as the kubelet does (decide/admission.ts)'),
  honoured('spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution', 'admission rejects the pod when no term matches the node (decide/admission.ts)'),
  ignored('spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution', SCHEDULING),
  ignored('spec.affinity.podAffinity', SCHEDULING),
  ignored('spec.affinity.podAntiAffinity', SCHEDULING),
  ignored('spec.tolerations', 'taints are not checked for static pods by the kubelet either; the file source adds the kubelet\'s NoExecute toleration (defaults.ts)'),
  ignored('spec.topologySpreadConstraints', SCHEDULING),
  ignored('spec.schedulerName', SCHEDULING),
  ignored('spec.schedulingGates', SCHEDULING),
  ignored('spec.schedulingGroup', SCHEDULING),
  ignored('spec.priorityClassName', 'resolved to a priority by the API server for the scheduler; every static pod is critical to the kubelet'),
  ignored('spec.priority', 'used by the kubelet to choose victims of preemption and node-pressure eviction, which kube-node does not do'),
  ignored('spec.preemptionPolicy', SCHEDULING),
  honoured('spec.os', 'admission rejects a pod for another OS (PodOSNotSupported, decide/admission.ts)'),
  honoured('spec.overhead', 'added to the pod\'s requests by admission (decide/admission.ts)'),
  honoured('spec.readinessGates', 'the pod is Ready only once its gates\' conditions are True; without an API server nothing sets them, so it never is, as with the kubelet (status/conditions.ts)'),

  // ---- the pod's sandbox and life ----
  honoured('spec.restartPolicy', 'decides restarts and the phase (decide/compute-pod-actions.ts)'),
  honoured('spec.terminationGracePeriodSeconds', 'the grace period when containers are killed (apply/kill.ts)'),
  honoured('spec.activeDeadlineSeconds', 'the pod is stopped for good with DeadlineExceeded (pod/active-deadline.ts)'),
  honoured('spec.hostNetwork', 'the sandbox\'s network namespace mode (sandbox-config.ts)'),
  honoured('spec.hostPID', 'the sandbox\'s PID namespace mode (sandbox-config.ts)'),
  honoured('spec.hostIPC', 'the sandbox\'s IPC namespace mode (sandbox-config.ts)'),
  honoured('spec.shareProcessNamespace', 'one PID namespace for the pod (sandbox-config.ts)'),
  runtime('spec.hostUsers', `false asks for a user namespace; ${CHECKED_AT_RUN}`),
  honoured('spec.hostname', 'the sandbox\'s hostname (sandbox-config.ts)'),
  honoured('spec.subdomain', 'with setHostnameAsFQDN, part of the hostname; in /etc/hosts (sandbox-config.ts, apply/etc-hosts.ts)'),
  honoured('spec.setHostnameAsFQDN', 'the sandbox\'s hostname is the FQDN (sandbox-config.ts)'),
  refused('spec.hostnameOverride'),
  honoured('spec.hostAliases', 'written to the pod\'s /etc/hosts (apply/etc-hosts.ts)'),
  honoured('spec.dnsPolicy', 'the sandbox\'s resolv.conf, as the kubelet builds it (kuberuntime/dns.ts)'),
  honoured('spec.dnsConfig', 'appended to the sandbox\'s resolv.conf (kuberuntime/dns.ts)'),
  refused('spec.runtimeClassName'),
  honoured('spec.resources', 'pod-level requests replace the containers\' for admission and decide the QoS class (decide/admission.ts, kuberuntime/resources.ts)'),
  refused('spec.resources.limits', 'podLevelLimits'),
  refused('spec.resources.claims'),
  honoured('spec.imagePullSecrets', 'a dockerconfigjson/dockercfg Secret beside the pod gives PullImage the credentials of the image\'s registry, matched as the kubelet\'s keyring (images/keyring.ts); one not there is a FailedToRetrieveImagePullSecret warning and the image is pulled without, as on a standalone kubelet'),
  ignored('spec.enableServiceLinks', 'there are no Services without an API server, so no service variables to add, as for a standalone kubelet'),
  ignored('spec.automountServiceAccountToken', 'no service account token is mounted: a standalone node has no API server to issue one'),
  refused('spec.serviceAccountName'),
  refused('spec.serviceAccount'),
  refused('spec.resourceClaims'),
  refused('spec.ephemeralContainers'),

  // ---- the pod's security context ----
  honoured(`${PSC}.runAsUser`, 'the default user of every container (container-config.ts)'),
  honoured(`${PSC}.runAsGroup`, 'the default group of every container (container-config.ts)'),
  honoured(`${PSC}.runAsNonRoot`, 'a container that would run as root is not started (kuberuntime/security.ts)'),
  honoured(`${PSC}.supplementalGroups`, 'sent to the runtime for the sandbox and every container (sandbox-config.ts)'),
  runtime(`${PSC}.supplementalGroupsPolicy`, `Strict ignores the image's /etc/group; ${CHECKED_AT_RUN}`),
  honoured(`${PSC}.fsGroup`, 'added to every container\'s groups; emptyDir, configMap, secret, downwardAPI and projected volumes are given to the group with the kubelet\'s modes (setgid directories), hostPath never (volumes/ownership.ts)'),
  honoured(`${PSC}.fsGroupChangePolicy`, 'as the kubelet: it applies only to volume types with their own storage; every kind kube-node provides is ephemeral, and those always get fsGroup (volumes/ownership.ts)'),
  honoured(`${PSC}.sysctls`, 'sent to the runtime for the sandbox (sandbox-config.ts)'),
  honoured(`${PSC}.seccompProfile`, 'the default profile of every container; Localhost profiles live under <root-dir>/seccomp (container-config.ts)'),
  runtime(`${PSC}.appArmorProfile`, 'the default profile of every container; a Localhost profile must be loaded in the host\'s AppArmor, checked at run/watch time'),
  honoured(`${PSC}.seLinuxOptions`, 'the sandbox\'s and every container\'s SELinux label, passed to the runtime, which applies it where SELinux is enabled; kube-node\'s own volumes are relabelled, host paths never, as the kubelet\'s plugins do (sandbox-config.ts, container-config.ts)'),
  ignored(`${PSC}.seLinuxChangePolicy`, 'chooses between relabelling by mount option and recursive relabelling for volumes that support the mount option (CSI, with the SELinuxMount feature); kube-node\'s volumes are relabelled by the runtime either way'),
  ignored(`${PSC}.windowsOptions`, 'Windows only: a Linux node ignores it, as the kubelet does'),

  // ---- containers (and init containers) ----
  honoured(`${C}.name`, 'names the CRI container (kuberuntime/labels.ts)'),
  honoured(`${C}.image`, 'pulled and run (images/)'),
  honoured(`${C}.imagePullPolicy`, 'decides the pull (images/pull-policy.ts)'),
  honoured(`${C}.command`, 'the entrypoint, with $(VAR) expanded (container-config.ts)'),
  honoured(`${C}.args`, 'the arguments, with $(VAR) expanded (container-config.ts)'),
  honoured(`${C}.workingDir`, 'the working directory (container-config.ts)'),
  honoured(`${C}.env`, 'values, fieldRef, resourceFieldRef, and configMapKeyRef/secretKeyRef from objects beside the pod (kuberuntime/env.ts)'),
  honoured(`${C}.env[].valueFrom.fileKeyRef`, 'read from the env file in the named emptyDir volume when the container starts (kuberuntime/env-file.ts)'),
  honoured(`${C}.envFrom`, 'from ConfigMaps and Secrets beside the pod (kuberuntime/env.ts)'),
  honoured(`${C}.ports`, 'hostPort mappings and admission\'s port conflicts; names for probes (sandbox-config.ts, decide/admission.ts)'),
  honoured(`${C}.resources.limits`, 'cpu and memory become the container\'s cgroup limits (container-config.ts); other resources are not enforced'),
  honoured(`${C}.resources.requests`, 'cpu and memory count in admission and cpu shares (decide/admission.ts, container-config.ts)'),
  refused(`${C}.resources.claims`),
  ignored(`${C}.resizePolicy`, 'in-place resize goes through the API server\'s resize subresource; an edited manifest restarts the container instead'),
  honoured(`${C}.restartPolicy`, 'Always on an init container makes it a sidecar; otherwise it replaces the pod\'s restartPolicy for that container (pod/restart-policy.ts)'),
  honoured(`${C}.restartPolicyRules`, 'an exit code matching a Restart rule restarts the container whatever its restartPolicy; a RestartAllContainers rule restarts every container of the pod in place, init containers first (pod/restart-policy.ts)'),
  honoured(`${C}.livenessProbe`, 'exec, httpGet, tcpSocket and grpc probes (prober/)'),
  honoured(`${C}.readinessProbe`, 'exec, httpGet, tcpSocket and grpc probes (prober/)'),
  honoured(`${C}.startupProbe`, 'exec, httpGet, tcpSocket and grpc probes (prober/)'),
  honoured(`${C}.lifecycle.postStart`, 'exec, httpGet, tcpSocket and sleep hooks (apply/lifecycle.ts)'),
  honoured(`${C}.lifecycle.preStop`, 'exec, httpGet, tcpSocket and sleep hooks (apply/lifecycle.ts)'),
  refused(`${C}.lifecycle.stopSignal`),
  honoured(`${C}.terminationMessagePath`, 'read after the container exits (apply/termination-message-file.ts)'),
  honoured(`${C}.terminationMessagePolicy`, 'FallbackToLogsOnError reads the log tail (kuberuntime/termination-message.ts)'),
  honoured(`${C}.stdin`, 'sent to the runtime (container-config.ts)'),
  honoured(`${C}.stdinOnce`, 'sent to the runtime (container-config.ts)'),
  honoured(`${C}.tty`, 'sent to the runtime (container-config.ts)'),
  honoured(`${C}.volumeMounts`, 'mounted from the volume\'s directory, subPath and subPathExpr resolved safely (container-config.ts, volumes/subpath.ts)'),
  runtime(`${C}.volumeMounts[].recursiveReadOnly`, `Enabled needs recursive read-only mounts, ${CHECKED_AT_RUN}; IfPossible falls back to read-only`),
  refused(`${C}.volumeDevices`),

  // ---- a container's security context ----
  honoured(`${SC}.privileged`, 'sent to the runtime (container-config.ts)'),
  honoured(`${SC}.allowPrivilegeEscalation`, 'false sets no_new_privs (container-config.ts)'),
  honoured(`${SC}.capabilities`, 'added and dropped by the runtime (container-config.ts)'),
  honoured(`${SC}.readOnlyRootFilesystem`, 'a read-only root (container-config.ts)'),
  honoured(`${SC}.runAsUser`, 'overrides the pod\'s (container-config.ts)'),
  honoured(`${SC}.runAsGroup`, 'overrides the pod\'s (container-config.ts)'),
  honoured(`${SC}.runAsNonRoot`, 'a container that would run as root is not started (kuberuntime/security.ts)'),
  honoured(`${SC}.procMount`, 'Unmasked sends no masked or read-only /proc paths (container-config.ts)'),
  honoured(`${SC}.seccompProfile`, 'overrides the pod\'s; Localhost profiles live under <root-dir>/seccomp (container-config.ts)'),
  runtime(`${SC}.appArmorProfile`, 'overrides the pod\'s; a Localhost profile must be loaded in the host\'s AppArmor, checked at run/watch time'),
  honoured(`${SC}.seLinuxOptions`, 'overrides the pod\'s label, passed to the runtime (container-config.ts)'),
  ignored(`${SC}.windowsOptions`, 'Windows only: a Linux node ignores it, as the kubelet does'),

  // ---- volumes ----
  honoured(`${V}.name`, 'what volumeMounts and fileKeyRef name (validate-volume.ts)'),
  honoured(`${V}.emptyDir`, 'a directory under the pod\'s data dir, tmpfs for medium Memory (volumes/kinds/empty-dir.ts)'),
  honoured(`${V}.emptyDir.sizeLimit`, 'the size of a Memory (tmpfs) emptyDir; an emptyDir on disk is measured, and a pod over its limit is evicted (Failed, reason Evicted) as by the kubelet\'s eviction manager (decide/eviction.ts)'),
  honoured(`${V}.hostPath`, 'the host path, with its type checked (volumes/kinds/host-path.ts)'),
  honoured(`${V}.configMap`, 'files from a ConfigMap beside the pod (volumes/kinds/config-map.ts)'),
  honoured(`${V}.secret`, 'files from a Secret beside the pod (volumes/kinds/secret.ts)'),
  honoured(`${V}.downwardAPI`, 'files of the pod\'s own fields (volumes/kinds/downward-api.ts)'),
  honoured(`${V}.projected`, 'configMap, secret and downwardAPI sources in one directory (volumes/kinds/projected.ts)'),
  refused(`${V}.projected.sources[].serviceAccountToken`),
  refused(`${V}.projected.sources[].clusterTrustBundle`),
  refused(`${V}.projected.sources[].podCertificate`),
  runtime(`${V}.image`, 'refused at run/watch time with a sentence naming the runtime and its version: mounting an OCI image needs containerd 2.1 or later, and kube-node does not pass image mounts to the CRI yet (decide/runtime-support.ts)'),
  refused(`${V}.persistentVolumeClaim`),
  refused(`${V}.ephemeral`),
  refused(`${V}.csi`),
  refused(`${V}.gitRepo`),
  ...IN_TREE_VOLUMES.map((k) => refused(`${V}.${k}`)),
]

/** Annotations kube-node (or the kubelet) gives a meaning to: the rest are only copied. */
export const ANNOTATION_SUPPORT: readonly FieldSupport[] = [
  runtime('container.apparmor.security.beta.kubernetes.io/*', 'the older form of a container\'s appArmorProfile, read as the kubelet reads it (kuberuntime/security.ts)'),
  ignored('seccomp.security.alpha.kubernetes.io/*', 'the kubelet has ignored the seccomp annotations since v1.27; use seccompProfile'),
  honoured('kube-node.io/start-after', 'starts the pod after the named pods are ready (manifest/start-after.ts)'),
  ignored('kubernetes.io/config.*', 'set by kube-node itself, as the kubelet sets them'),
]

/** `spec.containers[0].env[2].name` → `spec.containers[].env[].name`; init containers read as containers. */
export function fieldFamilyPath(path: string): string {
  return path.replace(/\[(?:\d*|"(?:[^"\\]|\\.)*")\]/g, '[]').replace(/^spec\.initContainers\[\]/, 'spec.containers[]')
}

/** The record that decides a field (a concrete path or a `[]` path): the longest one covering it. */
export function fieldSupport(path: string): FieldSupport | undefined {
  const p = fieldFamilyPath(path)
  let best: FieldSupport | undefined
  for (const r of FIELD_SUPPORT) {
    const covers = p === r.path || p.startsWith(`${r.path}.`) || p.startsWith(`${r.path}[`)
    if (covers && (best === undefined || r.path.length > best.path.length)) best = r
  }
  return best
}
