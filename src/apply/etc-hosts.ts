// The kubelet-managed /etc/hosts of a pod: written under the pod's data dir and bind-mounted into
// each container, so the pod's own hostname resolves to its IP and hostAliases take effect.
// Host-network pods get the node's /etc/hosts plus their hostAliases.
import {join} from 'node:path'
import type {Container, StaticPod} from '../api/types.js'
import type {Mount} from '../cri/api.js'
import type {HostFs} from '../host/port.js'
import {ETC_HOSTS_FILE, ETC_HOSTS_PATH, hostNetworkHostsFile, managedHostsFile, mountsEtcHosts} from './etc-hosts-content.js'
import {podDataDir} from '../kuberuntime/naming.js'

export interface EtcHostsContext {
  fs: HostFs
  rootDir: string
  clusterDomain: string
  /** The node's IP and name, for host-network pods. */
  hostIP?: string | undefined
  nodeName: string
}

/** Writes the pod's hosts file and returns the mount for `container`, or undefined when none. */
export async function prepareEtcHosts(ctx: EtcHostsContext, sp: StaticPod, container: Container, podIP: string, hostname: string): Promise<Mount | undefined> {
  const hostNetwork = sp.pod.spec.hostNetwork === true
  const ips = hostNetwork ? (ctx.hostIP ? [ctx.hostIP] : []) : podIP ? [podIP] : []
  if (!mountsEtcHosts(container, ips)) return undefined
  const content = hostNetwork
    ? hostNetworkHostsFile(sp, await ctx.fs.readText(ETC_HOSTS_PATH))
    : managedHostsFile(sp, ips, hostname || ctx.nodeName, ctx.clusterDomain)
  const dir = podDataDir(ctx.rootDir, sp.pod.metadata.uid)
  await ctx.fs.mkdirp(dir)
  const path = join(dir, ETC_HOSTS_FILE)
  await ctx.fs.writeFile(path, content, 0o644)
  return {containerPath: ETC_HOSTS_PATH, hostPath: path, readonly: false, selinuxRelabel: false, propagation: 'PROPAGATION_PRIVATE'}
}
