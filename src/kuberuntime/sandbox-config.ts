// PodSandboxConfig for a static pod, as the kubelet builds it (KUBELET.md §8.4,
// kuberuntime_sandbox.go, kuberuntime_sandbox_linux.go). Pure.
import type {Pod, StaticPod} from '../api/types.js'
import type {
  DNSConfig,
  LinuxSandboxSecurityContext,
  NamespaceOption,
  PodSandboxConfig,
  PortMapping,
  Protocol,
  SecurityProfile,
} from '../cri/api.js'
import {SandboxConfigError} from './errors.js'
import {podDnsConfig} from './dns.js'
import {HASH_VERSION, anyPrivileged, hostPortsOf} from './hash.js'
import {
  HASH_VERSION_ANNOTATION,
  MANAGED_BY_LABEL,
  NODE_LABEL,
  MANAGED_BY_VALUE,
  MANIFEST_NAME_LABEL,
  POD_NAME_LABEL,
  POD_NAMESPACE_LABEL,
  POD_UID_LABEL,
  SANDBOX_HASH_ANNOTATION,
} from './labels.js'
import {podLogDirectory} from './naming.js'
import {criSELinux} from './security.js'

export interface SandboxContext {
  /** 0 for the pod's first sandbox, previous + 1 after that. */
  attempt: number
  podLogsDir: string
  /** The host's resolver configuration, for dnsPolicy Default and the fall-backs. */
  hostDns: DNSConfig
  clusterDNS: string[]
  clusterDomain: string
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const MAX_HOSTNAME = 63
const MAX_FQDN = 64

function checkDnsLabel(field: string, value: string): void {
  if (value.length > MAX_HOSTNAME || !DNS_LABEL.test(value)) {
    throw new SandboxConfigError(`pod ${field} ${JSON.stringify(value)} is not a valid DNS label`)
  }
}

/**
 * The sandbox's hostname: empty on the host network (the node's name is used; containerd
 * refuses a hostname without a private UTS namespace), else spec.hostname or the pod name cut
 * to 63 characters without a trailing `-` or `.`; with setHostnameAsFQDN and a subdomain, the
 * fully qualified name.
 */
export function podHostname(pod: Pod, clusterDomain: string): string {
  const spec = pod.spec
  if (spec?.hostNetwork === true) return ''
  let hostname = pod.metadata?.name ?? ''
  if (spec?.hostname) {
    checkDnsLabel('hostname', spec.hostname)
    hostname = spec.hostname
  }
  if (hostname.length > MAX_HOSTNAME) hostname = hostname.slice(0, MAX_HOSTNAME).replace(/[-.]+$/, '')
  if (hostname === '') throw new SandboxConfigError(`pod name ${JSON.stringify(pod.metadata?.name ?? '')} gives an empty hostname`)
  if (spec?.subdomain) {
    checkDnsLabel('subdomain', spec.subdomain)
    if (spec.setHostnameAsFQDN === true) {
      const fqdn = `${hostname}.${spec.subdomain}.${pod.metadata?.namespace ?? 'default'}.svc.${clusterDomain}`
      if (fqdn.length > MAX_FQDN) {
        throw new SandboxConfigError(`pod FQDN ${JSON.stringify(fqdn)} is longer than ${MAX_FQDN} characters`)
      }
      return fqdn
    }
  }
  return hostname
}

/** Namespace modes for the sandbox; every container of the pod joins them (container-config.ts takes them from here). */
function namespaceOptions(pod: Pod): NamespaceOption {
  const spec = pod.spec
  return {
    network: spec?.hostNetwork === true ? 'NODE' : 'POD',
    ipc: spec?.hostIPC === true ? 'NODE' : 'POD',
    pid: spec?.hostPID === true ? 'NODE' : spec?.shareProcessNamespace === true ? 'POD' : 'CONTAINER',
  }
}

function toProtocol(p: string): Protocol {
  return p === 'UDP' || p === 'SCTP' ? p : 'TCP'
}

/** Port mappings of the regular containers' ports that have a hostPort (containerd's portmap
 * plugin needs one); exact duplicates are dropped. */
export function portMappings(pod: Pod): PortMapping[] {
  const seen = new Set<string>()
  const out: PortMapping[] = []
  for (const p of hostPortsOf(pod)) {
    const m: PortMapping = {protocol: toProtocol(p.protocol), containerPort: p.containerPort, hostPort: p.hostPort, hostIp: p.hostIP}
    const key = `${m.protocol}/${m.hostIp}/${m.hostPort}/${m.containerPort}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(m)
  }
  return out
}

/** `kernel/shm_rmid_forced` → `kernel.shm_rmid_forced`: when `/` is the first separator, the
 * kubelet swaps `/` and `.` (a `.` inside a name segment becomes `/`). */
export function sysctlName(name: string): string {
  const first = name.search(/[./]/)
  if (first === -1 || name[first] === '.') return name
  return name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'))
}

function sandboxSeccomp(pod: Pod): SecurityProfile {
  // The sandbox only runs the pause process: RuntimeDefault unless the pod asks for Unconfined.
  const type = pod.spec?.securityContext?.seccompProfile?.type
  return {profileType: type === 'Unconfined' ? 'Unconfined' : 'RuntimeDefault', localhostRef: ''}
}

/** fsGroup first, then supplementalGroups, without duplicates. */
function supplementalGroups(pod: Pod): number[] {
  const sc = pod.spec?.securityContext
  const groups = [...(sc?.fsGroup !== undefined ? [sc.fsGroup] : []), ...(sc?.supplementalGroups ?? [])]
  return [...new Set(groups)]
}

function sandboxSecurityContext(pod: Pod): LinuxSandboxSecurityContext {
  const sc = pod.spec?.securityContext
  const out: LinuxSandboxSecurityContext = {
    namespaceOptions: namespaceOptions(pod),
    privileged: anyPrivileged(pod),
    seccomp: sandboxSeccomp(pod),
  }
  if (sc?.runAsUser !== undefined) out.runAsUser = {value: sc.runAsUser}
  if (sc?.runAsGroup !== undefined) out.runAsGroup = {value: sc.runAsGroup}
  const selinux = criSELinux(sc?.seLinuxOptions)
  if (selinux) out.selinuxOptions = selinux
  const groups = supplementalGroups(pod)
  if (groups.length > 0) out.supplementalGroups = groups
  // Strict reaches only a runtime that reports supporting it (admission refuses the pod otherwise).
  const policy = sc?.supplementalGroupsPolicy
  if (policy === 'Merge' || policy === 'Strict') out.supplementalGroupsPolicy = policy
  return out
}

export function buildSandboxConfig(sp: StaticPod, ctx: SandboxContext): PodSandboxConfig {
  const pod = sp.pod
  const {name, namespace, uid} = pod.metadata
  const sysctls: Record<string, string> = {}
  for (const s of pod.spec.securityContext?.sysctls ?? []) sysctls[sysctlName(s.name)] = s.value
  return {
    metadata: {name, namespace, uid, attempt: ctx.attempt},
    hostname: podHostname(pod, ctx.clusterDomain),
    logDirectory: podLogDirectory(ctx.podLogsDir, namespace, name, uid),
    dnsConfig: podDnsConfig(pod, ctx),
    portMappings: portMappings(pod),
    labels: {
      ...(pod.metadata.labels ?? {}),
      [POD_NAME_LABEL]: name,
      [POD_NAMESPACE_LABEL]: namespace,
      [POD_UID_LABEL]: uid,
      [MANAGED_BY_LABEL]: MANAGED_BY_VALUE,
      [NODE_LABEL]: sp.pod.spec.nodeName ?? '',
      [MANIFEST_NAME_LABEL]: sp.manifestName,
    },
    annotations: {
      ...(pod.metadata.annotations ?? {}),
      [SANDBOX_HASH_ANNOTATION]: sp.facts.sandboxHash,
      [HASH_VERSION_ANNOTATION]: HASH_VERSION,
    },
    linux: {
      // Empty: kube-node does not manage QoS cgroups, so containerd uses its default parent.
      cgroupParent: '',
      securityContext: sandboxSecurityContext(pod),
      sysctls,
    },
  }
}
