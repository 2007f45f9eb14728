// The error for a container whose config cannot be built from what the node has: a missing
// ConfigMap, Secret or key, a hostPath of the wrong type. The executor shows it as the
// container's CreateContainerConfigError, as the kubelet does.
import {KubeNodeError} from '../util/errors.js'

export class ConfigError extends KubeNodeError {
  readonly kind = 'ContainerConfig'
}

/**
 * A volume that could not be set up on the host (a memory-backed volume without its tmpfs): a
 * CreateContainerConfigError like the others, with the kubelet's FailedMount event besides.
 */
export class VolumeMountError extends ConfigError {}

/**
 * A pod whose sandbox config cannot be built (a hostname that is no DNS label, an FQDN too long).
 * Validation refuses such manifests first; this is the runtime's guard, shown as the pod's
 * CreatePodSandboxError.
 */
export class SandboxConfigError extends KubeNodeError {
  readonly kind = 'SandboxConfig'
}
