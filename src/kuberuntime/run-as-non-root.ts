// runAsNonRoot, checked as the kubelet does before it creates a container
// (kuberuntime_container_linux.go verifyRunAsNonRoot): an explicit runAsUser must not be 0; with
// no runAsUser the image's user decides, and a non-numeric or missing image user cannot be proved
// non-root. Pure: the image's user is passed in.
import type {Container, Pod} from '../api/types.js'

export interface ImageUser {
  uid?: number
  username?: string
}

/** The effective runAsNonRoot and runAsUser: the container's settings win over the pod's. */
export function effectiveRunAs(pod: Pod, container: Container): {runAsNonRoot: boolean; runAsUser?: number} {
  const podSc = pod.spec?.securityContext
  const sc = container.securityContext
  const runAsUser = sc?.runAsUser ?? podSc?.runAsUser
  return {runAsNonRoot: (sc?.runAsNonRoot ?? podSc?.runAsNonRoot) === true, ...(runAsUser !== undefined ? {runAsUser} : {})}
}

/** Undefined when the container may start; else why not (a CreateContainerConfigError message). */
export function verifyRunAsNonRoot(pod: Pod, container: Container, image: ImageUser | undefined): string | undefined {
  const {runAsNonRoot, runAsUser} = effectiveRunAs(pod, container)
  if (!runAsNonRoot) return undefined
  if (runAsUser !== undefined) return runAsUser === 0 ? "container's runAsUser breaks non-root policy" : undefined
  const uid = image?.uid ?? (image?.username ? undefined : 0)
  if (uid === 0) return 'container has runAsNonRoot and image will run as root'
  if (uid === undefined) return `container has runAsNonRoot and image has non-numeric user (${image?.username ?? ''}), cannot verify user is non-root`
  return undefined
}
