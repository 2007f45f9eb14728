// Before CreateContainer: the container's config (a pure builder) and everything the host must
// hold for it (volumes, subPaths, its log directory, /etc/hosts, the termination-message file),
// as the kubelet's startContainer prepares them. Any problem is a CreateContainerConfigError.
import type {Container, ContainerFacts, ObjectStore, StaticPod} from '../api/types.js'
import type {ContainerConfig, PodSandboxConfig} from '../cri/api.js'
import type {ImageService} from '../cri/port.js'
import type {StartContainerAction} from '../decide/actions.js'
import {recursiveReadOnlySupported, type RuntimeSupport} from '../decide/runtime-support.js'
import {buildContainerConfig} from '../kuberuntime/container-config.js'
import type {NodeCapacity} from '../kuberuntime/env.js'
import {podLogDirectory} from '../kuberuntime/naming.js'
import {effectiveRunAs, verifyRunAsNonRoot} from '../kuberuntime/security.js'
import {prepareTerminationMessage} from './termination-message-file.js'
import {readEnvFiles} from './env-files.js'
import type {Logger} from '../util/logger.js'
import {prepareEtcHosts} from './etc-hosts.js'
import type {HostFs} from '../host/port.js'
import {volumeSources} from '../volumes/registry.js'
import {prepareVolumes} from '../volumes/setup.js'
import {secureSubPathMounts} from '../volumes/subpath.js'

export interface PrepareDeps {
  images: ImageService
  fs: HostFs
  logger: Logger
  rootDir: string
  podLogsDir: string
  clusterDomain: string
  /** The node's IP (status.hostIP for the downward API) and capacity (resourceFieldRef). */
  hostIP?: string | undefined
  nodeCapacity?: NodeCapacity | undefined
  seccompDefault?: boolean | undefined
  runtimeSupport?: (() => Promise<RuntimeSupport>) | undefined
}

/** The sandbox a container joins: its config and IP. */
export interface SandboxRef {
  id: string
  config: PodSandboxConfig
  ip: string
}

/** Whether the runtime makes mounts recursively read-only; asked only for a recursiveReadOnly: IfPossible mount. */
async function recursiveReadOnlyMounts(deps: PrepareDeps, container: Container): Promise<boolean> {
  const asks = (container.volumeMounts ?? []).some((m) => m.recursiveReadOnly === 'IfPossible')
  return asks && deps.runtimeSupport !== undefined && recursiveReadOnlySupported(await deps.runtimeSupport())
}

export async function prepareContainer(
  deps: PrepareDeps,
  pod: StaticPod['pod'],
  container: Container,
  facts: ContainerFacts,
  a: StartContainerAction,
  sandbox: SandboxRef,
  objects: ObjectStore,
): Promise<ContainerConfig> {
  const uid = pod.metadata.uid
  // runAsNonRoot without a runAsUser asks the image who it runs as (one ImageStatus call).
  const runAs = effectiveRunAs(pod, container)
  const imageUser = runAs.runAsNonRoot && runAs.runAsUser === undefined ? ((await deps.images.imageStatus({image: container.image ?? ''})) ?? undefined) : undefined
  const nonRoot = verifyRunAsNonRoot(pod, container, imageUser)
  if (nonRoot) throw new Error(nonRoot)
  // fileKeyRef: the env files init containers wrote, read before the config that uses them.
  const envFiles = await readEnvFiles(deps.fs, deps.rootDir, pod, container)
  // Volumes first, as the kubelet's volume manager mounts them before the container's config is made.
  await prepareVolumes({...deps, objects}, pod, container)
  const config = buildContainerConfig(pod, container, {
    restartCount: a.restartCount,
    restartBase: a.restartBase ?? 0,
    rootDir: deps.rootDir,
    podIP: sandbox.ip,
    containerType: a.containerType,
    sandboxConfig: sandbox.config,
    objects,
    hostIP: deps.hostIP,
    nodeCapacity: deps.nodeCapacity,
    volumeSource: volumeSources(deps.rootDir, uid),
    seccompDefault: deps.seccompDefault,
    envFiles,
    recursiveReadOnlyMounts: await recursiveReadOnlyMounts(deps, container),
    facts,
  })
  await secureSubPathMounts(deps.fs, pod, container, deps.rootDir, config.mounts, new Map(config.envs.map((e) => [e.key, e.value])))
  await deps.fs.mkdirp(`${podLogDirectory(deps.podLogsDir, pod.metadata.namespace, pod.metadata.name, uid)}/${a.name}`)
  const hosts = await prepareEtcHosts(
    {fs: deps.fs, rootDir: deps.rootDir, clusterDomain: deps.clusterDomain, nodeName: pod.spec.nodeName ?? '', hostIP: deps.hostIP},
    pod,
    container,
    sandbox.ip,
    sandbox.config.hostname,
  )
  if (hosts) config.mounts.push(hosts)
  const message = await prepareTerminationMessage(deps.fs, deps.rootDir, uid, container)
  if (message) {
    config.mounts.push(message.mount)
    Object.assign(config.annotations, message.annotations)
  }
  return config
}
