// The error for a container whose config cannot be built from what the node has: a missing
// ConfigMap, Secret or key, a hostPath of the wrong type. The executor shows it as the
// container's CreateContainerConfigError, as the kubelet does.
import {KubeNodeError} from '../util/errors.js'

export class ConfigError extends KubeNodeError {
  readonly kind = 'ContainerConfig'
}
