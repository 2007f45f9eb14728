// ContainerConfig for one container of a static pod, as the kubelet builds it
// (kuberuntime_container.go generateContainerConfig, kuberuntime_container_linux.go,
// security_context.go, labels.go). Pure.
import {posix} from 'node:path'
import type {Container, ContainerFacts, ObjectStore, Pod, StaticPod, Volume} from '../api/types.js'
import type {
  ContainerConfig,
  LinuxContainerResources,
  LinuxContainerSecurityContext,
  LinuxSandboxSecurityContext,
  Mount,
  MountPropagation,
  NamespaceOption,
  PodSandboxConfig,
  SecurityProfile,
} from '../cri/api.js'
import {ConfigError} from './errors.js'
import {buildEnv, expand, expandAll, type NodeCapacity} from './env.js'
import type {EnvFileStore} from './env-file.js'
import {subPathError} from '../util/relative-path.js'
import {HASH_VERSION, podConfigHash} from './hash.js'
import {
  CONTAINER_HASH_ANNOTATION,
  CONTAINER_NAME_LABEL,
  CONTAINER_PORTS_ANNOTATION,
  CONTAINER_RESTART_COUNT_ANNOTATION,
  CONTAINER_CONFIG_HASH_ANNOTATION,
  RESTART_COUNT_BASE_ANNOTATION,
  CONTAINER_TYPE_LABEL,
  HASH_VERSION_ANNOTATION,
  MANAGED_BY_LABEL,
  NODE_LABEL,
  MANAGED_BY_VALUE,
  POD_NAME_LABEL,
  POD_NAMESPACE_LABEL,
  POD_TERMINATION_GRACE_PERIOD_ANNOTATION,
  POD_UID_LABEL,
  PRESTOP_HANDLER_ANNOTATION,
  TERMINATION_MESSAGE_PATH_ANNOTATION,
  TERMINATION_MESSAGE_POLICY_ANNOTATION,
} from './labels.js'
import type {ContainerType} from './model.js'
import {containerLogPath} from './naming.js'
import {oomScoreAdj} from './resources.js'
import {appArmorProfileOf, criAppArmor, criSELinux} from './security.js'

export interface ContainerContext {
  /** The restart count the new container gets (CRI metadata.attempt). */
  restartCount: number
  /** The restart count at which this definition first ran (status counts restarts from it); default 0. */
  restartBase?: number
  rootDir: string
  /** The sandbox's IP, for the downward API; empty on the host network. */
  podIP: string
  containerType: ContainerType
  sandboxConfig: PodSandboxConfig
  /** The node's IP, for fieldRef status.hostIP; default ''. */
  hostIP?: string | undefined
  /** ConfigMaps and Secrets for envFrom and valueFrom references; default none. */
  objects?: ObjectStore | undefined
  /** The node's allocatable CPU and memory, for resourceFieldRef limits the container does not set. */
  nodeCapacity?: NodeCapacity | undefined
  /** Where each of the pod's volumes lives on the host; undefined for kinds kube-node does not provide. */
  volumeSource: VolumeSourceOf
  /** Containers without a seccomp profile get RuntimeDefault (else Unconfined); default true. */
  seccompDefault?: boolean | undefined
  /** The env files the container's fileKeyRefs name (read by the apply step); default none. */
  envFiles?: EnvFileStore | undefined
  /**
   * The runtime makes mounts recursively read-only (its default handler reports
   * recursive_read_only_mounts): `recursiveReadOnly: IfPossible` mounts use it. Enabled mounts
   * always ask for it (admission refuses them on a runtime without it). Default false.
   */
  recursiveReadOnlyMounts?: boolean | undefined
  /** The container's hash and resource numbers, worked out once with the pod (pod-facts.ts). */
  facts: ContainerFacts
}

/** A volume's directory on the host and whether containers always mount it read-only. */
export interface VolumeSource {
  hostPath: string
  readOnly: boolean
}
export type VolumeSourceOf = (volume: Volume) => VolumeSource | undefined

// The kubelet's defaults for a container with the Default procMount
// (pkg/securitycontext/util.go). containerd (internal/cri container_create_linux.go) clears its
// own OCI defaults and applies only the paths it is sent, so they must be sent here.
export const DEFAULT_MASKED_PATHS: readonly string[] = [
  '/proc/asound',
  '/proc/acpi',
  '/proc/kcore',
  '/proc/keys',
  '/proc/latency_stats',
  '/proc/timer_list',
  '/proc/timer_stats',
  '/proc/sched_debug',
  '/proc/scsi',
  '/sys/firmware',
  '/sys/devices/virtual/powercap',
]
export const DEFAULT_READONLY_PATHS: readonly string[] = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger']

/** The container's cgroup numbers with its OOM score adjustment on a node with this much memory (0 when unknown). */
function containerResources(facts: ContainerFacts, memoryCapacityBytes: number | undefined): LinuxContainerResources {
  // Without the node's memory size, 0 (the runtime's default) rather than a guess.
  const adj = memoryCapacityBytes === undefined ? 0 : oomScoreAdj(facts.oom, memoryCapacityBytes)
  return {...facts.limits, oomScoreAdj: adj, cpusetCpus: '', cpusetMems: ''}
}

function seccompProfile(pod: Pod, container: Container, rootDir: string, seccompDefault: boolean): SecurityProfile {
  const profile = container.securityContext?.seccompProfile ?? pod.spec?.securityContext?.seccompProfile
  if (profile?.type === 'Unconfined') return {profileType: 'Unconfined', localhostRef: ''}
  if (profile?.type === 'Localhost') {
    // Like the kubelet, Localhost profiles are files under <root-dir>/seccomp.
    return {profileType: 'Localhost', localhostRef: posix.join(rootDir, 'seccomp', profile.localhostProfile ?? '')}
  }
  // No profile: the node's default (kubelet seccompDefault).
  return {profileType: seccompDefault ? 'RuntimeDefault' : 'Unconfined', localhostRef: ''}
}

/** What a container without a sandbox config to join would share: the pod's network and IPC, its own PIDs. */
const OWN_NAMESPACES: NamespaceOption = {network: 'POD', ipc: 'POD', pid: 'CONTAINER'}

/**
 * The container's effective security context: container settings override the pod's. The pod's
 * namespaces and supplemental groups are the sandbox's (`sandbox`, built once for the pod): the
 * container joins them rather than working them out again.
 */
export function containerSecurityContext(pod: Pod, container: Container, rootDir: string, seccompDefault: boolean, sandbox: LinuxSandboxSecurityContext | undefined): LinuxContainerSecurityContext {
  const podSc = pod.spec?.securityContext
  const sc = container.securityContext
  const privileged = sc?.privileged === true
  const out: LinuxContainerSecurityContext = {
    privileged,
    namespaceOptions: {...(sandbox?.namespaceOptions ?? OWN_NAMESPACES)},
    seccomp: seccompProfile(pod, container, rootDir, seccompDefault),
  }
  if (sc?.capabilities) {
    out.capabilities = {addCapabilities: [...(sc.capabilities.add ?? [])], dropCapabilities: [...(sc.capabilities.drop ?? [])]}
  }
  const runAsUser = sc?.runAsUser ?? podSc?.runAsUser
  if (runAsUser !== undefined) out.runAsUser = {value: runAsUser}
  const runAsGroup = sc?.runAsGroup ?? podSc?.runAsGroup
  if (runAsGroup !== undefined) out.runAsGroup = {value: runAsGroup}
  const groups = sandbox?.supplementalGroups ?? []
  if (groups.length > 0) out.supplementalGroups = [...groups]
  if (sandbox?.supplementalGroupsPolicy !== undefined) out.supplementalGroupsPolicy = sandbox.supplementalGroupsPolicy
  // Both AppArmor forms, as the kubelet sends them: runtimes before the `apparmor` message read the string.
  Object.assign(out, criAppArmor(appArmorProfileOf(pod, container)))
  // The container's label, else the pod's (the kubelet's determineEffectiveSecurityContext).
  const selinux = criSELinux(sc?.seLinuxOptions ?? podSc?.seLinuxOptions)
  if (selinux) out.selinuxOptions = selinux
  if (sc?.readOnlyRootFilesystem === true) out.readonlyRootfs = true
  if (sc?.allowPrivilegeEscalation === false) out.noNewPrivs = true
  // Privileged containers see everything; an Unmasked procMount asks for no masking.
  if (!privileged && sc?.procMount !== 'Unmasked') {
    out.maskedPaths = [...DEFAULT_MASKED_PATHS]
    out.readonlyPaths = [...DEFAULT_READONLY_PATHS]
  }
  return out
}

function propagation(mode: string | undefined): MountPropagation {
  if (mode === 'HostToContainer') return 'PROPAGATION_HOST_TO_CONTAINER'
  if (mode === 'Bidirectional') return 'PROPAGATION_BIDIRECTIONAL'
  return 'PROPAGATION_PRIVATE'
}

/**
 * The volumeMount's subPath, or its subPathExpr with `$(VAR)` expanded from the container's
 * environment (the kubelet's rule); either must stay a relative path without '..'.
 */
export function mountSubPath(vm: NonNullable<Container['volumeMounts']>[number], vars: ReadonlyMap<string, string>, field: string): string {
  const sub = vm.subPath ? vm.subPath : vm.subPathExpr ? expand(vm.subPathExpr, (name) => vars.get(name)) : ''
  if (!sub) return ''
  const err = subPathError(sub)
  if (err) throw new ConfigError(`${field}: ${vm.subPath ? 'subPath' : 'subPathExpr'} ${JSON.stringify(sub.slice(0, 200))} ${err}`)
  return sub
}

function withSubPath(base: string, subPath: string): string {
  return subPath ? posix.join(base, subPath) : base
}

/**
 * Mounts for the container's volumeMounts: hostPath volumes mount their path, emptyDir volumes
 * (on disk or tmpfs) their directory under the pod's data dir, configMap, secret, downwardAPI and
 * projected volumes the directory their files are written to, always read-only as in the
 * kubelet. Volume kinds kube-node cannot provide are left out.
 */
export function buildMounts(pod: Pod, container: Container, volumeSource: VolumeSourceOf, vars: ReadonlyMap<string, string> = new Map(), recursiveReadOnlyMounts = false): Mount[] {
  const volumes = pod.spec?.volumes ?? []
  const mounts: Mount[] = []
  for (const vm of container.volumeMounts ?? []) {
    const volume = volumes.find((v) => v.name === vm.name)
    const source = volume ? volumeSource(volume) : undefined
    if (!source) continue
    mounts.push({
      containerPath: vm.mountPath,
      hostPath: withSubPath(source.hostPath, mountSubPath(vm, vars, `container ${container.name}, volumeMount ${vm.name}`)),
      readonly: vm.readOnly === true || source.readOnly,
      // As the kubelet's volume plugins: the volumes kube-node makes may be relabelled for the
      // pod's SELinux label (a no-op where SELinux is off), a host path never.
      selinuxRelabel: volume?.hostPath === undefined,
      propagation: propagation(vm.mountPropagation),
      // The kubelet's resolveRecursiveReadOnly: validation has made sure the mount is read-only.
      ...(vm.recursiveReadOnly === 'Enabled' || (vm.recursiveReadOnly === 'IfPossible' && recursiveReadOnlyMounts) ? {recursiveReadOnly: true} : {}),
    })
  }
  return mounts
}

function containerAnnotations(pod: StaticPod['pod'], container: Container, hash: string, restartCount: number, restartBase: number): Record<string, string> {
  const annotations: Record<string, string> = {
    [CONTAINER_HASH_ANNOTATION]: hash,
    [HASH_VERSION_ANNOTATION]: HASH_VERSION,
    [CONTAINER_RESTART_COUNT_ANNOTATION]: String(restartCount),
    [RESTART_COUNT_BASE_ANNOTATION]: String(Math.min(restartBase, restartCount)),
    [TERMINATION_MESSAGE_PATH_ANNOTATION]: container.terminationMessagePath ?? '',
    [TERMINATION_MESSAGE_POLICY_ANNOTATION]: container.terminationMessagePolicy ?? '',
  }
  const grace = pod.spec.terminationGracePeriodSeconds
  if (grace !== undefined && grace !== null) annotations[POD_TERMINATION_GRACE_PERIOD_ANNOTATION] = String(grace)
  const preStop = container.lifecycle?.preStop
  if (preStop) annotations[PRESTOP_HANDLER_ANNOTATION] = JSON.stringify(preStop)
  if (container.ports && container.ports.length > 0) annotations[CONTAINER_PORTS_ANNOTATION] = JSON.stringify(container.ports)
  const configHash = podConfigHash(pod)
  if (configHash) annotations[CONTAINER_CONFIG_HASH_ANNOTATION] = configHash
  return annotations
}

/** The CRI config of one container of `pod`, joining the sandbox `ctx.sandboxConfig` describes. */
export function buildContainerConfig(pod: StaticPod['pod'], container: Container, ctx: ContainerContext): ContainerConfig {
  const {name, namespace, uid} = pod.metadata
  const envs = buildEnv(pod, container, {
    podIP: ctx.podIP,
    hostIP: ctx.hostIP ?? '',
    objects: ctx.objects,
    nodeCapacity: ctx.nodeCapacity,
    envFiles: ctx.envFiles,
  })
  const vars = new Map(envs.map((e) => [e.key, e.value]))
  return {
    metadata: {name: container.name, attempt: ctx.restartCount},
    image: {image: container.image ?? '', userSpecifiedImage: container.image ?? ''},
    command: expandAll(container.command, vars),
    args: expandAll(container.args, vars),
    workingDir: container.workingDir ?? '',
    envs,
    mounts: buildMounts(pod, container, ctx.volumeSource, vars, ctx.recursiveReadOnlyMounts ?? false),
    labels: {
      [POD_NAME_LABEL]: name,
      [POD_NAMESPACE_LABEL]: namespace,
      [POD_UID_LABEL]: uid,
      [CONTAINER_NAME_LABEL]: container.name,
      [MANAGED_BY_LABEL]: MANAGED_BY_VALUE,
      [NODE_LABEL]: pod.spec.nodeName ?? '',
      [CONTAINER_TYPE_LABEL]: ctx.containerType,
    },
    annotations: containerAnnotations(pod, container, ctx.facts.hash, ctx.restartCount, ctx.restartBase ?? 0),
    logPath: containerLogPath(container.name, ctx.restartCount),
    stdin: container.stdin === true,
    stdinOnce: container.stdinOnce === true,
    tty: container.tty === true,
    linux: {
      resources: containerResources(ctx.facts, ctx.nodeCapacity?.memoryBytes),
      securityContext: containerSecurityContext(pod, container, ctx.rootDir, ctx.seccompDefault ?? true, ctx.sandboxConfig.linux?.securityContext),
    },
  }
}
