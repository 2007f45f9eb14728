// The kubelet-managed /etc/hosts of a pod (kubelet_pods.go makeMounts, makeHostsMount,
// managedHostsFileContent, nodeHostsFileContent, hostsEntriesFromHostAliases): its content,
// worked out by pure functions, and the file written under the pod's data dir and bind-mounted
// into each container, so the pod's own hostname resolves to its IP and hostAliases take effect.
//
// Rules, as in the kubelet on Linux:
// - every container gets the mount, unless it mounts something on /etc/hosts itself, and only
//   once the pod's IPs are known (the kubelet skips it while the sandbox has no IP);
// - a pod on the pod network gets a generated file: localhost entries, its IPs with its
//   hostname (FQDN first when spec.subdomain is set), then the hostAliases;
// - a host-network pod gets the node's /etc/hosts under its own header, then the hostAliases.
import {join} from 'node:path'
import type {Container, StaticPod} from '../api/types.js'
import type {Mount} from '../cri/api.js'
import type {HostFs} from '../host/port.js'
import {podDataDir} from '../kuberuntime/naming.js'

export const ETC_HOSTS_PATH = '/etc/hosts'
/** The file's name inside the pod directory. */
export const ETC_HOSTS_FILE = 'etc-hosts'
/** The kubelet's name for the mount (kubecontainer.Mount.Name). */
export const ETC_HOSTS_MOUNT_NAME = 'k8s-managed-etc-hosts'

const MANAGED_HEADER = '# Kubernetes-managed hosts file.\n'
const HOST_NETWORK_HEADER = '# Kubernetes-managed hosts file (host network).\n'

/** Whether the pod gets the generated file (`managedHostsFile`); host-network pods get the
 * node's file instead (`hostNetworkHostsFile`). */
export function needsManagedHosts(pod: StaticPod['pod']): boolean {
  return pod.spec.hostNetwork !== true
}

/** Whether the kubelet mounts the pod's hosts file into this container. */
export function mountsEtcHosts(container: Container, podIPs: readonly string[]): boolean {
  if (podIPs.length === 0) return false
  return !(container.volumeMounts ?? []).some((m) => m.mountPath === ETC_HOSTS_PATH)
}

/** `<subdomain>.<namespace>.svc.<clusterDomain>`, or '' without a subdomain. */
export function podHostDomain(pod: StaticPod['pod'], clusterDomain: string): string {
  const subdomain = pod.spec.subdomain
  if (!subdomain) return ''
  return `${subdomain}.${pod.metadata.namespace}.svc.${clusterDomain}`
}

/**
 * The generated hosts file of a pod-network pod. `hostname` is the pod's short hostname
 * (spec.hostname or the pod name, cut to 63 characters); given the FQDN that
 * setHostnameAsFQDN puts in the UTS namespace, only its first label is used.
 */
export function managedHostsFile(pod: StaticPod['pod'], podIPs: readonly string[], hostname: string, clusterDomain: string): string {
  const short = hostname.split('.')[0] ?? hostname
  const domain = podHostDomain(pod, clusterDomain)
  const lines = [
    '127.0.0.1\tlocalhost',
    '::1\tlocalhost ip6-localhost ip6-loopback',
    'fe00::0\tip6-localnet',
    'fe00::0\tip6-mcastprefix',
    'fe00::1\tip6-allnodes',
    'fe00::2\tip6-allrouters',
    ...podIPs.map((ip) => (domain ? `${ip}\t${short}.${domain}\t${short}` : `${ip}\t${short}`)),
  ]
  return MANAGED_HEADER + lines.map((l) => `${l}\n`).join('') + hostAliasEntries(pod)
}

/** A host-network pod's hosts file: the node's own /etc/hosts (`nodeHosts`) plus the hostAliases. */
export function hostNetworkHostsFile(pod: StaticPod['pod'], nodeHosts: string): string {
  return HOST_NETWORK_HEADER + nodeHosts + hostAliasEntries(pod)
}

/** One line per alias IP with all its hostnames, after a blank line and a header. */
function hostAliasEntries(pod: StaticPod['pod']): string {
  const aliases = pod.spec.hostAliases ?? []
  if (aliases.length === 0) return ''
  const lines = aliases.map((a) => `${a.ip ?? ''}\t${(a.hostnames ?? []).join('\t')}\n`)
  return `\n# Entries added by HostAliases.\n${lines.join('')}`
}

export interface EtcHostsContext {
  fs: HostFs
  rootDir: string
  clusterDomain: string
  /** The node's IP and name, for host-network pods. */
  hostIP?: string | undefined
  nodeName: string
}

/** Writes the pod's hosts file and returns the mount for `container`, or undefined when none. */
export async function prepareEtcHosts(ctx: EtcHostsContext, pod: StaticPod['pod'], container: Container, podIP: string, hostname: string): Promise<Mount | undefined> {
  const hostNetwork = pod.spec.hostNetwork === true
  const ips = hostNetwork ? (ctx.hostIP ? [ctx.hostIP] : []) : podIP ? [podIP] : []
  if (!mountsEtcHosts(container, ips)) return undefined
  const content = hostNetwork
    ? hostNetworkHostsFile(pod, await ctx.fs.readText(ETC_HOSTS_PATH))
    : managedHostsFile(pod, ips, hostname || ctx.nodeName, ctx.clusterDomain)
  const dir = podDataDir(ctx.rootDir, pod.metadata.uid)
  await ctx.fs.mkdirp(dir)
  const path = join(dir, ETC_HOSTS_FILE)
  await ctx.fs.writeFile(path, content, 0o644)
  return {containerPath: ETC_HOSTS_PATH, hostPath: path, readonly: false, selinuxRelabel: false, propagation: 'PROPAGATION_PRIVATE'}
}
