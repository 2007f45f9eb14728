// Label and annotation keys on CRI sandboxes and containers. The io.kubernetes.* keys are the
// kubelet's (pkg/kubelet/kuberuntime/labels.go), so crictl and ctr users see familiar names;
// the kube-node.io/* keys are ours.

export const POD_NAME_LABEL = 'io.kubernetes.pod.name'
export const POD_NAMESPACE_LABEL = 'io.kubernetes.pod.namespace'
export const POD_UID_LABEL = 'io.kubernetes.pod.uid'
export const CONTAINER_NAME_LABEL = 'io.kubernetes.container.name'

export const CONTAINER_HASH_ANNOTATION = 'io.kubernetes.container.hash'
export const CONTAINER_RESTART_COUNT_ANNOTATION = 'io.kubernetes.container.restartCount'
export const TERMINATION_MESSAGE_PATH_ANNOTATION = 'io.kubernetes.container.terminationMessagePath'
export const TERMINATION_MESSAGE_POLICY_ANNOTATION = 'io.kubernetes.container.terminationMessagePolicy'
export const POD_TERMINATION_GRACE_PERIOD_ANNOTATION = 'io.kubernetes.pod.terminationGracePeriod'
export const PRESTOP_HANDLER_ANNOTATION = 'io.kubernetes.container.preStopHandler'
export const CONTAINER_PORTS_ANNOTATION = 'io.kubernetes.container.ports'
/**
 * The restart count at which the container's definition (its spec hash) first ran: the restart
 * count shown is counted from there, so an edit starts again at 0 as the kubelet's new pod does,
 * while CRI attempts, log file names and the kubelet's restartCount annotation keep increasing.
 */
export const RESTART_COUNT_BASE_ANNOTATION = 'kube-node.io/restart-count-base'
/** The pod's kubernetes.io/config.hash when the container was created: which version of the pod it ran. */
export const CONTAINER_CONFIG_HASH_ANNOTATION = 'kube-node.io/config-hash'

/** Marks a sandbox (and its containers) as created by kube-node: the only ones it touches. */
export const MANAGED_BY_LABEL = 'kube-node.io/managed'
export const MANAGED_BY_VALUE = 'true'
/**
 * The node name the pod belongs to: a kube-node instance touches only its own node's pods, so
 * two instances with different --node-name can share one runtime (as tests and CI do).
 */
export const NODE_LABEL = 'kube-node.io/node'

/** CRI label selector for the sandboxes and containers of kube-node (of one node, if given). */
export function managedSelector(nodeName?: string): Record<string, string> {
  return nodeName ? {[MANAGED_BY_LABEL]: MANAGED_BY_VALUE, [NODE_LABEL]: nodeName} : {[MANAGED_BY_LABEL]: MANAGED_BY_VALUE}
}

/** The static pod's name as written in its manifest, without the node suffix. */
export const MANIFEST_NAME_LABEL = 'kube-node.io/manifest-name'
/** Which kind of container: `init`, `sidecar` (restartable init) or `regular`. */
export const CONTAINER_TYPE_LABEL = 'kube-node.io/container-type'
/** Version of the rules that produced the container and sandbox hashes. */
export const HASH_VERSION_ANNOTATION = 'kube-node.io/hash-version'
export const SANDBOX_HASH_ANNOTATION = 'kube-node.io/sandbox-hash'

export const CONFIG_HASH_ANNOTATION = 'kubernetes.io/config.hash'
export const CONFIG_SOURCE_ANNOTATION = 'kubernetes.io/config.source'
export const CONFIG_SEEN_ANNOTATION = 'kubernetes.io/config.seen'
