// Plain CRI types (cri/api.ts) ↔ the proto-loader message objects. Pure.
// Wire facts handled here: int64/uint64 arrive as decimal strings (longs: String) and become
// numbers; `bytes` are Buffers (a JS string fails to serialise into KeyValue.value); enums are
// their proto names, and a name this proto does not know (a newer runtime) falls back to the
// "unknown" value; unset messages arrive as null and become defaults or absent optionals.
import type {
  AuthConfig,
  Container,
  ContainerConfig,
  ContainerFilter,
  ContainerMetadata,
  ContainerState,
  ContainerStats,
  ContainerStatsFilter,
  ContainerStatus,
  ExecSyncResult,
  Image,
  ImageSpec,
  Mount,
  MountPropagation,
  NamespaceMode,
  NamespaceOption,
  PodSandbox,
  PodSandboxConfig,
  PodSandboxFilter,
  PodSandboxMetadata,
  PodSandboxState,
  PodSandboxStatus,
  RuntimeCondition,
  RuntimeFeatures,
  VersionInfo,
} from '../api.js'
import type {Container__Output as WireContainer} from './generated/runtime/v1/Container.js'
import type {AuthConfig as WireAuthConfig} from './generated/runtime/v1/AuthConfig.js'
import type {ContainerConfig as WireContainerConfig} from './generated/runtime/v1/ContainerConfig.js'
import type {ContainerFilter as WireContainerFilter} from './generated/runtime/v1/ContainerFilter.js'
import type {ContainerMetadata__Output as WireContainerMetadata} from './generated/runtime/v1/ContainerMetadata.js'
import type {ContainerStats__Output as WireContainerStats} from './generated/runtime/v1/ContainerStats.js'
import type {ContainerStatsFilter as WireContainerStatsFilter} from './generated/runtime/v1/ContainerStatsFilter.js'
import type {UInt64Value__Output as WireUInt64Value} from './generated/runtime/v1/UInt64Value.js'
import type {ContainerStatus__Output as WireContainerStatus} from './generated/runtime/v1/ContainerStatus.js'
import type {ExecSyncResponse__Output as WireExecSyncResponse} from './generated/runtime/v1/ExecSyncResponse.js'
import type {Image__Output as WireImage} from './generated/runtime/v1/Image.js'
import type {ImageSpec as WireImageSpecIn, ImageSpec__Output as WireImageSpec} from './generated/runtime/v1/ImageSpec.js'
import type {Mount__Output as WireMount} from './generated/runtime/v1/Mount.js'
import type {NamespaceOption__Output as WireNamespaceOption} from './generated/runtime/v1/NamespaceOption.js'
import type {PodSandbox__Output as WirePodSandbox} from './generated/runtime/v1/PodSandbox.js'
import type {PodSandboxConfig as WirePodSandboxConfig} from './generated/runtime/v1/PodSandboxConfig.js'
import type {PodSandboxFilter as WirePodSandboxFilter} from './generated/runtime/v1/PodSandboxFilter.js'
import type {PodSandboxMetadata__Output as WirePodSandboxMetadata} from './generated/runtime/v1/PodSandboxMetadata.js'
import type {PodSandboxStatus__Output as WirePodSandboxStatus} from './generated/runtime/v1/PodSandboxStatus.js'
import type {StatusResponse__Output as WireStatusResponse} from './generated/runtime/v1/StatusResponse.js'
import type {VersionResponse__Output as WireVersionResponse} from './generated/runtime/v1/VersionResponse.js'

// ---- scalars ----

/** int64/uint64 as proto-loader hands them over (decimal strings) → number. */
export function int64ToNumber(v: string | number | null | undefined): number {
  if (v === null || v === undefined || v === '') return 0
  const n = typeof v === 'number' ? v : Number(v)
  return Number.isFinite(n) ? n : 0
}

function oneOf<T extends string>(allowed: readonly T[], v: unknown, fallback: T): T {
  return typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : fallback
}

const sandboxStates: readonly PodSandboxState[] = ['SANDBOX_READY', 'SANDBOX_NOTREADY']
const containerStates: readonly ContainerState[] = [
  'CONTAINER_CREATED',
  'CONTAINER_RUNNING',
  'CONTAINER_EXITED',
  'CONTAINER_UNKNOWN',
]
const namespaceModes: readonly NamespaceMode[] = ['POD', 'CONTAINER', 'NODE', 'TARGET']
const propagations: readonly MountPropagation[] = [
  'PROPAGATION_PRIVATE',
  'PROPAGATION_HOST_TO_CONTAINER',
  'PROPAGATION_BIDIRECTIONAL',
]

const map = (m: Record<string, string> | null | undefined): Record<string, string> => ({...(m ?? {})})

// ---- plain → wire (requests) ----

/** Plain shapes already match the wire's camelCase input types; only bytes need converting. */
export function podSandboxConfigToWire(c: PodSandboxConfig): WirePodSandboxConfig {
  return {...c, labels: map(c.labels), annotations: map(c.annotations), portMappings: c.portMappings ?? []}
}

export function containerConfigToWire(c: ContainerConfig): WireContainerConfig {
  return {
    ...c,
    image: imageSpecToWire(c.image),
    envs: (c.envs ?? []).map((e) => ({key: e.key, value: Buffer.from(e.value, 'utf8')})),
    labels: map(c.labels),
    annotations: map(c.annotations),
  }
}

export function imageSpecToWire(s: ImageSpec): WireImageSpecIn {
  return {
    image: s.image,
    annotations: map(s.annotations),
    userSpecifiedImage: s.userSpecifiedImage ?? '',
  }
}

/** Every field set, empty when absent, as the kubelet fills runtimeapi.AuthConfig. */
export function authConfigToWire(a: AuthConfig): WireAuthConfig {
  return {
    username: a.username ?? '',
    password: a.password ?? '',
    auth: a.auth ?? '',
    serverAddress: a.serverAddress ?? '',
    identityToken: a.identityToken ?? '',
    registryToken: a.registryToken ?? '',
  }
}

export function podSandboxFilterToWire(f: PodSandboxFilter): WirePodSandboxFilter {
  return {
    id: f.id ?? '',
    // The state is wrapped so that "any state" differs from SANDBOX_READY (enum value 0).
    state: f.state === undefined ? null : {state: f.state},
    labelSelector: map(f.labelSelector),
  }
}

export function containerFilterToWire(f: ContainerFilter): WireContainerFilter {
  return {
    id: f.id ?? '',
    state: f.state === undefined ? null : {state: f.state},
    podSandboxId: f.podSandboxId ?? '',
    labelSelector: map(f.labelSelector),
  }
}

export function containerStatsFilterToWire(f: ContainerStatsFilter): WireContainerStatsFilter {
  return {id: f.id ?? '', podSandboxId: f.podSandboxId ?? '', labelSelector: map(f.labelSelector)}
}

// ---- wire → plain (responses) ----

export function versionFromWire(v: WireVersionResponse): VersionInfo {
  return {
    version: v.version,
    runtimeName: v.runtimeName,
    runtimeVersion: v.runtimeVersion,
    runtimeApiVersion: v.runtimeApiVersion,
  }
}

export function conditionsFromWire(s: WireStatusResponse): RuntimeCondition[] {
  return (s.status?.conditions ?? []).map((c) => ({
    type: c.type,
    status: c.status,
    reason: c.reason,
    message: c.message,
  }))
}

/** Handlers and features of a Status answer; absent fields (an older runtime) are unsupported. */
export function runtimeFeaturesFromWire(s: WireStatusResponse): RuntimeFeatures {
  return {
    handlers: (s.runtimeHandlers ?? []).map((h) => ({
      name: h.name,
      recursiveReadOnlyMounts: h.features?.recursiveReadOnlyMounts ?? false,
      userNamespaces: h.features?.userNamespaces ?? false,
    })),
    supplementalGroupsPolicy: s.features?.supplementalGroupsPolicy ?? false,
  }
}

function sandboxMetadataFromWire(m: WirePodSandboxMetadata | null): PodSandboxMetadata {
  return {name: m?.name ?? '', uid: m?.uid ?? '', namespace: m?.namespace ?? '', attempt: m?.attempt ?? 0}
}

function containerMetadataFromWire(m: WireContainerMetadata | null): ContainerMetadata {
  return {name: m?.name ?? '', attempt: m?.attempt ?? 0}
}

function namespaceOptionFromWire(n: WireNamespaceOption): NamespaceOption {
  return {
    network: oneOf(namespaceModes, n.network, 'POD'),
    pid: oneOf(namespaceModes, n.pid, 'POD'),
    ipc: oneOf(namespaceModes, n.ipc, 'POD'),
  }
}

export function imageSpecFromWire(s: WireImageSpec | null): ImageSpec {
  return {image: s?.image ?? '', annotations: map(s?.annotations), userSpecifiedImage: s?.userSpecifiedImage ?? ''}
}

function mountFromWire(m: WireMount): Mount {
  return {
    containerPath: m.containerPath,
    hostPath: m.hostPath,
    readonly: m.readonly,
    selinuxRelabel: m.selinuxRelabel,
    propagation: oneOf(propagations, m.propagation, 'PROPAGATION_PRIVATE'),
    ...(m.recursiveReadOnly ? {recursiveReadOnly: true} : {}),
  }
}

export function podSandboxFromWire(s: WirePodSandbox): PodSandbox {
  return {
    id: s.id,
    metadata: sandboxMetadataFromWire(s.metadata),
    state: oneOf(sandboxStates, s.state, 'SANDBOX_NOTREADY'),
    createdAt: int64ToNumber(s.createdAt),
    labels: map(s.labels),
    annotations: map(s.annotations),
    runtimeHandler: s.runtimeHandler,
  }
}

export function podSandboxStatusFromWire(s: WirePodSandboxStatus): PodSandboxStatus {
  // A status carries every field of a listed sandbox, plus network and namespaces.
  const out: PodSandboxStatus = podSandboxFromWire(s)
  if (s.network) out.network = {ip: s.network.ip, additionalIps: s.network.additionalIps.map((p) => ({ip: p.ip}))}
  const options = s.linux?.namespaces?.options
  if (s.linux) out.linux = options ? {namespaces: {options: namespaceOptionFromWire(options)}} : {}
  return out
}

export function containerFromWire(c: WireContainer): Container {
  return {
    id: c.id,
    podSandboxId: c.podSandboxId,
    metadata: containerMetadataFromWire(c.metadata),
    image: imageSpecFromWire(c.image),
    imageRef: c.imageRef,
    state: oneOf(containerStates, c.state, 'CONTAINER_UNKNOWN'),
    createdAt: int64ToNumber(c.createdAt),
    labels: map(c.labels),
    annotations: map(c.annotations),
  }
}

/** A usage the runtime left unset (no wrapper, or no timestamp) is absent, not zero. */
function usageFromWire(timestampNs: string, value: WireUInt64Value | null): {timestampMs: number; value: number} | undefined {
  const ns = int64ToNumber(timestampNs)
  if (value === null || ns <= 0) return undefined
  return {timestampMs: Math.floor(ns / 1e6), value: int64ToNumber(value.value)}
}

export function containerStatsFromWire(s: WireContainerStats): ContainerStats {
  const out: ContainerStats = {
    id: s.attributes?.id ?? '',
    metadata: containerMetadataFromWire(s.attributes?.metadata ?? null),
    labels: map(s.attributes?.labels),
  }
  const cpu = s.cpu ? usageFromWire(s.cpu.timestamp, s.cpu.usageCoreNanoSeconds) : undefined
  const memory = s.memory ? usageFromWire(s.memory.timestamp, s.memory.workingSetBytes) : undefined
  if (cpu) out.cpuUsageCoreNanoSeconds = cpu
  if (memory) out.memoryWorkingSetBytes = memory
  return out
}

export function containerStatusFromWire(c: WireContainerStatus): ContainerStatus {
  return {
    id: c.id,
    metadata: containerMetadataFromWire(c.metadata),
    state: oneOf(containerStates, c.state, 'CONTAINER_UNKNOWN'),
    createdAt: int64ToNumber(c.createdAt),
    startedAt: int64ToNumber(c.startedAt),
    finishedAt: int64ToNumber(c.finishedAt),
    exitCode: c.exitCode,
    image: imageSpecFromWire(c.image),
    imageRef: c.imageRef,
    reason: c.reason,
    message: c.message,
    labels: map(c.labels),
    annotations: map(c.annotations),
    mounts: c.mounts.map(mountFromWire),
    logPath: c.logPath,
  }
}

export function imageFromWire(i: WireImage): Image {
  return {
    id: i.id,
    repoTags: [...i.repoTags],
    repoDigests: [...i.repoDigests],
    size: int64ToNumber(i.size),
    ...(i.uid ? {uid: int64ToNumber(i.uid.value)} : {}),
    username: i.username ?? '',
  }
}

export function execSyncFromWire(r: WireExecSyncResponse): ExecSyncResult {
  return {
    stdout: Buffer.from(r.stdout ?? Buffer.alloc(0)),
    stderr: Buffer.from(r.stderr ?? Buffer.alloc(0)),
    exitCode: r.exitCode,
  }
}
