// The Linux security settings of a container as the CRI takes them and the kubelet resolves
// them, in one place: SELinux options (passed through unchanged; the runtime applies the label
// only where SELinux is enabled), the AppArmor profile (pkg/security/apparmor GetProfile,
// kuberuntime getAppArmorProfile: the container's securityContext.appArmorProfile, else the
// deprecated `container.apparmor.security.beta.kubernetes.io/<container>` annotation, which the
// kubelet still reads for static pods, else the pod's; unset sends no profile and the runtime
// applies its default) and the runAsNonRoot check before CreateContainer
// (kuberuntime_container_linux.go verifyRunAsNonRoot: an explicit runAsUser must not be 0; with
// no runAsUser the image's user decides, and a non-numeric or missing one cannot be proved
// non-root). Pure: the image's user is passed in.
import type {SELinuxOptions} from '../api/generated/types.js'
import type {SecurityProfile, SELinuxOption} from '../cri/api.js'
import type {AppArmorProfile, Container, Pod} from '../api/types.js'

/** The CRI form, or undefined when nothing is set (an empty label asks for nothing). */
export function criSELinux(o: SELinuxOptions | undefined): SELinuxOption | undefined {
  if (!o) return undefined
  const out = {user: o.user ?? '', role: o.role ?? '', type: o.type ?? '', level: o.level ?? ''}
  return out.user || out.role || out.type || out.level ? out : undefined
}

/** The deprecated per-container annotation's key prefix; the container's name follows. */
export const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/'

/** The annotation's values (and the CRI's deprecated apparmor_profile string). */
export const APPARMOR_RUNTIME_DEFAULT = 'runtime/default'
export const APPARMOR_UNCONFINED = 'unconfined'
export const APPARMOR_LOCALHOST_PREFIX = 'localhost/'

/** The profile the annotation value names; undefined for a value that is not one (validation refuses it). */
export function profileFromAnnotation(value: string): AppArmorProfile | undefined {
  if (value === APPARMOR_RUNTIME_DEFAULT) return {type: 'RuntimeDefault'}
  if (value === APPARMOR_UNCONFINED) return {type: 'Unconfined'}
  if (value.startsWith(APPARMOR_LOCALHOST_PREFIX)) return {type: 'Localhost', localhostProfile: value.slice(APPARMOR_LOCALHOST_PREFIX.length)}
  return undefined
}

/** Where a container's profile came from, for messages naming the field. */
export type AppArmorSource = 'container' | 'annotation' | 'pod'

/** The container's effective profile and where it was set, or undefined when none is asked for. */
export function resolveAppArmor(pod: Pod, container: Container): {profile: AppArmorProfile; from: AppArmorSource} | undefined {
  const own = container.securityContext?.appArmorProfile
  if (own !== undefined) return {profile: own, from: 'container'}
  const annotations = pod.metadata?.annotations ?? {}
  const key = APPARMOR_ANNOTATION_PREFIX + container.name
  if (Object.hasOwn(annotations, key)) {
    const fromAnnotation = profileFromAnnotation(annotations[key] ?? '')
    if (fromAnnotation !== undefined) return {profile: fromAnnotation, from: 'annotation'}
  }
  const podProfile = pod.spec?.securityContext?.appArmorProfile
  return podProfile === undefined ? undefined : {profile: podProfile, from: 'pod'}
}

/** The container's effective profile, or undefined when none is asked for. */
export function appArmorProfileOf(pod: Pod, container: Container): AppArmorProfile | undefined {
  return resolveAppArmor(pod, container)?.profile
}

/** The CRI fields for a profile: the `apparmor` message and the deprecated string older runtimes read. */
export function criAppArmor(profile: AppArmorProfile | undefined): {apparmor?: SecurityProfile; apparmorProfile?: string} {
  switch (profile?.type) {
    case 'RuntimeDefault':
      return {apparmor: {profileType: 'RuntimeDefault', localhostRef: ''}, apparmorProfile: APPARMOR_RUNTIME_DEFAULT}
    case 'Unconfined':
      return {apparmor: {profileType: 'Unconfined', localhostRef: ''}, apparmorProfile: APPARMOR_UNCONFINED}
    case 'Localhost': {
      const name = profile.localhostProfile ?? ''
      return {apparmor: {profileType: 'Localhost', localhostRef: name}, apparmorProfile: APPARMOR_LOCALHOST_PREFIX + name}
    }
    default:
      // No profile (validation refuses an unknown type): the runtime's default applies.
      return {}
  }
}

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
