// A container's AppArmor profile, as the kubelet resolves it (pkg/security/apparmor GetProfile,
// kuberuntime getAppArmorProfile): the container's securityContext.appArmorProfile, else the
// deprecated `container.apparmor.security.beta.kubernetes.io/<container>` annotation (static pods
// are never synced from annotations to fields, so the kubelet reads it), else the pod's
// securityContext.appArmorProfile. Unset: no profile is sent and the runtime applies its default.
// Pure.
import type {AppArmorProfile, Container, Pod} from '../api/types.js'
import type {SecurityProfile} from '../cri/api.js'

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
