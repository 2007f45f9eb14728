// A pod's DNS configuration, as the kubelet builds it (pkg/kubelet/network/dns/dns.go). Pure: the
// host's resolv.conf comes in as text or as an already parsed DNSConfig.
import type {DNSConfig} from '../cri/api.js'
import type {Pod} from '../api/types.js'

// The resolver's limits the kubelet enforces on the search list (dns.go, MaxDNSSearchPaths and
// MaxDNSSearchListChars).
const MAX_SEARCHES = 32
const MAX_SEARCH_CHARS = 2048

/**
 * Parses resolv.conf text: `nameserver` lines add servers, the last `search` line wins (a
 * trailing `.` is dropped, `.` alone ignored), `options` accumulate with later values of the same
 * option replacing earlier ones. Comments start with `#` or `;`. Like the kubelet, `domain` is
 * ignored.
 */
export function parseResolvConf(text: string): DNSConfig {
  const servers: string[] = []
  let searches: string[] = []
  let options: string[] = []
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/[#;].*$/, '')
    const fields = line.split(/\s+/).filter((f) => f !== '')
    const [keyword, ...rest] = fields
    if (keyword === 'nameserver' && rest[0] !== undefined) servers.push(rest[0])
    else if (keyword === 'search') searches = rest.filter((s) => s !== '.').map((s) => s.replace(/\.$/, ''))
    else if (keyword === 'options') options = mergeOptions(options, rest)
  }
  return {servers, searches, options}
}

function optionName(option: string): string {
  const i = option.indexOf(':')
  return i === -1 ? option : option.slice(0, i)
}

/** Options keyed by name, first occurrence keeps its place, a later value replaces the earlier. */
function mergeOptions(existing: readonly string[], added: readonly string[]): string[] {
  const byName = new Map<string, string>()
  for (const o of [...existing, ...added]) byName.set(optionName(o), o)
  return [...byName.values()]
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)]
}

function fitSearches(searches: readonly string[]): string[] {
  const out: string[] = []
  let chars = 0
  for (const s of searches.slice(0, MAX_SEARCHES)) {
    // Each entry costs its length plus a separating space.
    if (chars + s.length + (out.length > 0 ? 1 : 0) > MAX_SEARCH_CHARS) break
    chars += s.length + (out.length > 0 ? 1 : 0)
    out.push(s)
  }
  return out
}

export interface PodDnsInput {
  /** The host's resolver configuration (parsed from the configured resolv.conf). */
  hostDns: DNSConfig
  clusterDNS: readonly string[]
  clusterDomain: string
}

type DnsKind = 'cluster' | 'host' | 'none'

function dnsKind(pod: Pod, clusterDNS: readonly string[]): DnsKind {
  const spec = pod.spec
  const policy = spec?.dnsPolicy ?? 'ClusterFirst'
  if (policy === 'None') return 'none'
  if (policy === 'Default') return 'host'
  // ClusterFirst on the host network resolves like the host; ClusterFirstWithHostNet does not.
  if (policy === 'ClusterFirst' && spec?.hostNetwork === true) return 'host'
  // Without cluster DNS servers the kubelet falls back to the host's (event MissingClusterDNS).
  return clusterDNS.length > 0 ? 'cluster' : 'host'
}

/** The DNS configuration the sandbox gets for the pod's dnsPolicy, with spec.dnsConfig merged in. */
export function podDnsConfig(pod: Pod, input: PodDnsInput): DNSConfig {
  const namespace = pod.metadata?.namespace ?? 'default'
  let base: DNSConfig
  switch (dnsKind(pod, input.clusterDNS)) {
    case 'none':
      base = {servers: [], searches: [], options: []}
      break
    case 'host':
      base = {servers: [...input.hostDns.servers], searches: [...input.hostDns.searches], options: [...input.hostDns.options]}
      break
    case 'cluster': {
      const d = input.clusterDomain
      const clusterSearches = d ? [`${namespace}.svc.${d}`, `svc.${d}`, d] : []
      base = {servers: [...input.clusterDNS], searches: [...clusterSearches, ...input.hostDns.searches], options: ['ndots:5']}
      break
    }
  }
  const extra = pod.spec?.dnsConfig
  const extraOptions = (extra?.options ?? []).map((o) => (o.value !== undefined && o.value !== '' ? `${o.name ?? ''}:${o.value}` : (o.name ?? '')))
  return {
    servers: unique([...base.servers, ...(extra?.nameservers ?? [])]),
    searches: fitSearches(unique([...base.searches, ...(extra?.searches ?? [])])),
    options: mergeOptions(base.options, extraOptions.filter((o) => o !== '')),
  }
}
