// The error for a container whose config cannot be built from what the node has: a missing
// ConfigMap, Secret or key, a hostPath of the wrong type. The executor shows it as the
// container's CreateContainerConfigError, as the kubelet does.
import {KubeNodeError} from '../util/errors.js'

export class ConfigError extends KubeNodeError {
  readonly kind = 'ContainerConfig'
}

/**
 * A pod whose sandbox config cannot be built (a hostname that is no DNS label, an FQDN too long).
 * Validation refuses such manifests first; this is the runtime's guard, shown as the pod's
 * CreatePodSandboxError.
 */
export class SandboxConfigError extends KubeNodeError {
  readonly kind = 'SandboxConfig'
}
