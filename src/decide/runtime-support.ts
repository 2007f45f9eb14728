// Fields that only work when the CRI runtime (or the host) can do them: a pod using one the
// runtime lacks is refused at admission with the field and what is missing, instead of running
// without it. The kubelet spreads these checks over admission and sandbox/container creation:
//   - supplementalGroupsPolicy: Strict → predicate admission, SupplementalGroupsPolicyNotSupported
//     when the runtime's Status lacks features.supplemental_groups_policy;
//   - AppArmor → its AppArmor admit handler (pkg/security/apparmor), where every profile but Unconfined
//     needs AppArmor enabled on the host ("Cannot enforce AppArmor: ..."). The kubelet makes it a
//     soft admission (the pod waits Pending); nothing on a standalone node changes that while a
//     run lasts, so kube-node fails the pod. Like older kubelets, a Localhost profile must also be
//     loaded, which the runtime would otherwise report only when the container is created;
//   - hostUsers: false → sandbox creation fails when the runtime handler lacks user_namespaces;
//   - recursiveReadOnly: Enabled → container creation fails when the handler lacks
//     recursive_read_only_mounts (IfPossible falls back to a plain read-only mount);
//   - image volumes → need a runtime that mounts OCI images (containerd 2.1 or later) and
//     kube-node passing them as CRI image mounts, which it does not do yet.
// kube-node checks them all before anything of the pod is created, so a refused pod leaves
// nothing behind. Only pods using such a field need the runtime's features (needsRuntimeSupport):
// the Status call that reads them is never made for the others. Pure.
import type {AppArmorProfile, Container, StaticPod} from '../api/types.js'
import {resolveAppArmor, type AppArmorSource} from '../kuberuntime/security.js'

/** A runtime handler's features, as the CRI Status reports them. */
export interface HandlerSupport {
  name: string
  recursiveReadOnlyMounts: boolean
  userNamespaces: boolean
}

/** What the runtime and the host can do, read once per process when a pod first needs it. */
export interface RuntimeSupport {
  /** The runtime's name and version from the CRI Version call, e.g. `containerd 1.6.20`. */
  runtime: {name: string; version: string}
  /** Status runtime_handlers; none from a runtime that predates them (all unsupported). */
  handlers: readonly HandlerSupport[]
  /** Status features.supplemental_groups_policy. */
  supplementalGroupsPolicy: boolean
  /** The host's AppArmor: enabled, and the names of the loaded profiles. */
  appArmor: {enabled: boolean; profiles: ReadonlySet<string>}
}

export interface RuntimeRefusal {
  reason: string
  message: string
}

export const RUNTIME_REASON = {
  supplementalGroupsPolicy: 'SupplementalGroupsPolicyNotSupported',
  appArmor: 'AppArmor',
  userNamespaces: 'UserNamespacesNotSupported',
  recursiveReadOnly: 'RecursiveReadOnlyMountsNotSupported',
  imageVolume: 'ImageVolumeNotSupported',
} as const

/** kube-node never sets a runtime handler (runtimeClassName is refused): the default one, ''. */
const DEFAULT_HANDLER = ''

/** containerd mounts image volumes from this version on (CRI Mount.image). */
const IMAGE_VOLUME_CONTAINERD = [2, 1] as const

interface NamedContainer {
  field: string
  container: Container
}

function containersOf(pod: StaticPod['pod']): NamedContainer[] {
  const spec = pod.spec
  return [
    ...(spec.initContainers ?? []).map((container, i) => ({field: `spec.initContainers[${i}]`, container})),
    ...spec.containers.map((container, i) => ({field: `spec.containers[${i}]`, container})),
  ]
}

const usesRecursiveReadOnly = (c: Container): boolean => (c.volumeMounts ?? []).some((m) => m.recursiveReadOnly === 'Enabled' || m.recursiveReadOnly === 'IfPossible')
const confines = (p: AppArmorProfile | undefined): boolean => p !== undefined && p.type !== 'Unconfined'

/**
 * Whether admitting (or starting) this pod needs the runtime's features: only then are they
 * read. Unconfined AppArmor and recursiveReadOnly Disabled need nothing.
 */
export function needsRuntimeSupport(pod: StaticPod['pod']): boolean {
  const spec = pod.spec
  if (spec.hostUsers === false) return true
  if (spec.securityContext?.supplementalGroupsPolicy === 'Strict') return true
  if ((spec.volumes ?? []).some((v) => v.image !== undefined)) return true
  if (confines(spec.securityContext?.appArmorProfile)) return true
  return containersOf(pod).some(({container}) => usesRecursiveReadOnly(container) || confines(resolveAppArmor(pod, container)?.profile))
}

const runtimeName = (s: RuntimeSupport): string => `${s.runtime.name} ${s.runtime.version}`.trim()

function defaultHandler(s: RuntimeSupport): HandlerSupport | undefined {
  return s.handlers.find((h) => h.name === DEFAULT_HANDLER)
}

/** Checked with admission's predicates, in the kubelet's place (right after the OS checks). */
export function supplementalGroupsRefusal(pod: StaticPod['pod'], s: RuntimeSupport): RuntimeRefusal | undefined {
  if (pod.spec.securityContext?.supplementalGroupsPolicy !== 'Strict' || s.supplementalGroupsPolicy) return undefined
  return {
    reason: RUNTIME_REASON.supplementalGroupsPolicy,
    message: `SupplementalGroupsPolicy=Strict is not supported in this node: spec.securityContext.supplementalGroupsPolicy: Strict needs the supplemental_groups_policy feature, which the runtime (${runtimeName(s)}) does not report supporting`,
  }
}

/** Checked after admission's predicates and resources: AppArmor, then what sandbox and container creation need. */
export function runtimeRefusal(pod: StaticPod['pod'], s: RuntimeSupport): RuntimeRefusal | undefined {
  return appArmorRefusal(pod, s) ?? userNamespacesRefusal(pod, s) ?? imageVolumeRefusal(pod, s) ?? recursiveReadOnlyRefusal(pod, s)
}

function appArmorField(field: string, container: Container, from: AppArmorSource): string {
  switch (from) {
    case 'container':
      return `${field}.securityContext.appArmorProfile`
    case 'annotation':
      return `metadata.annotations[container.apparmor.security.beta.kubernetes.io/${container.name}]`
    case 'pod':
      return 'spec.securityContext.appArmorProfile'
  }
}

function describeProfile(p: AppArmorProfile): string {
  return p.type === 'Localhost' ? `the Localhost profile ${JSON.stringify(p.localhostProfile ?? '')}` : `the ${p.type} profile`
}

function appArmorRefusal(pod: StaticPod['pod'], s: RuntimeSupport): RuntimeRefusal | undefined {
  const refuse = (detail: string): RuntimeRefusal => ({reason: RUNTIME_REASON.appArmor, message: `Cannot enforce AppArmor: ${detail}`})
  if (!s.appArmor.enabled) {
    // The kubelet's rule is that every profile but Unconfined, anywhere in the pod, needs AppArmor.
    const podProfile = pod.spec.securityContext?.appArmorProfile
    if (confines(podProfile)) return refuse(`spec.securityContext.appArmorProfile asks for ${describeProfile(podProfile!)}, but AppArmor is not enabled on the host`)
    for (const {field, container} of containersOf(pod)) {
      const r = resolveAppArmor(pod, container)
      if (r && confines(r.profile)) return refuse(`${appArmorField(field, container, r.from)} asks for ${describeProfile(r.profile)}, but AppArmor is not enabled on the host`)
    }
    return undefined
  }
  for (const {field, container} of containersOf(pod)) {
    const r = resolveAppArmor(pod, container)
    if (r?.profile.type !== 'Localhost') continue
    const name = r.profile.localhostProfile ?? ''
    if (name.trim() === '') return refuse(`${appArmorField(field, container, r.from)}: invalid empty AppArmor profile name`)
    if (!s.appArmor.profiles.has(name)) {
      return refuse(`${appArmorField(field, container, r.from)} asks for ${describeProfile(r.profile)}, which is not loaded on the host (load it with apparmor_parser)`)
    }
  }
  return undefined
}

function userNamespacesRefusal(pod: StaticPod['pod'], s: RuntimeSupport): RuntimeRefusal | undefined {
  if (pod.spec.hostUsers !== false || defaultHandler(s)?.userNamespaces) return undefined
  return {
    reason: RUNTIME_REASON.userNamespaces,
    message: `spec.hostUsers: false needs user namespaces, which the runtime (${runtimeName(s)}) does not report supporting for its default runtime handler`,
  }
}

/** Whether `version` (`1.6.20`, `v2.1.0-rc.1`) is at least major.minor. */
function atLeast(version: string, [major, minor]: readonly [number, number]): boolean {
  const m = /^v?(\d+)\.(\d+)/.exec(version)
  if (!m) return false
  const [a, b] = [Number(m[1]), Number(m[2])]
  return a > major || (a === major && b >= minor)
}

function imageVolumeRefusal(pod: StaticPod['pod'], s: RuntimeSupport): RuntimeRefusal | undefined {
  const i = (pod.spec.volumes ?? []).findIndex((v) => v.image !== undefined)
  if (i < 0) return undefined
  const field = `spec.volumes[${i}].image`
  const capable = s.runtime.name === 'containerd' && atLeast(s.runtime.version, IMAGE_VOLUME_CONTAINERD)
  return {
    reason: RUNTIME_REASON.imageVolume,
    message: capable
      ? `${field}: the runtime (${runtimeName(s)}) can mount OCI images, but kube-node does not pass image volumes to it yet; copy the files into an emptyDir from an init container instead`
      : `${field}: image volumes need a runtime that mounts OCI images through the CRI (containerd 2.1 or later), and the runtime is ${runtimeName(s)}; copy the files into an emptyDir from an init container instead`,
  }
}

/** Whether recursive read-only mounts can be asked of the runtime (IfPossible uses them only then). */
export function recursiveReadOnlySupported(s: RuntimeSupport | undefined): boolean {
  return s !== undefined && (defaultHandler(s)?.recursiveReadOnlyMounts ?? false)
}

function recursiveReadOnlyRefusal(pod: StaticPod['pod'], s: RuntimeSupport): RuntimeRefusal | undefined {
  if (recursiveReadOnlySupported(s)) return undefined
  for (const {field, container} of containersOf(pod)) {
    const j = (container.volumeMounts ?? []).findIndex((m) => m.recursiveReadOnly === 'Enabled')
    if (j < 0) continue
    const vm = container.volumeMounts![j]!
    return {
      reason: RUNTIME_REASON.recursiveReadOnly,
      message: `${field}.volumeMounts[${j}].recursiveReadOnly: Enabled (volume ${JSON.stringify(vm.name)}) needs recursive read-only mounts, which the runtime (${runtimeName(s)}) does not report supporting; use IfPossible to fall back to a plain read-only mount`,
    }
  }
  return undefined
}
