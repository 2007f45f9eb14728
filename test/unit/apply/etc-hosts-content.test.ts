import {describe, expect, it} from 'vitest'
import {
  hostNetworkHostsFile,
  managedHostsFile,
  mountsEtcHosts,
  needsManagedHosts,
} from '../../../src/apply/etc-hosts.js'
import {makeContainer, makeStaticPod} from '../../support/pods.js'

const LOCALHOST = [
  '# Kubernetes-managed hosts file.',
  '127.0.0.1\tlocalhost',
  '::1\tlocalhost ip6-localhost ip6-loopback',
  'fe00::0\tip6-localnet',
  'fe00::0\tip6-mcastprefix',
  'fe00::1\tip6-allnodes',
  'fe00::2\tip6-allrouters',
]
const file = (...lines: string[]): string => [...LOCALHOST, ...lines].map((l) => `${l}\n`).join('')

describe('managedHostsFile', () => {
  it.each([
    {name: 'plain pod', mutate: () => {}, ips: ['10.88.0.5'], hostname: 'web-node1', want: file('10.88.0.5\tweb-node1')},
    {
      name: 'subdomain adds the FQDN first',
      mutate: (p: ReturnType<typeof makeStaticPod>['pod']) => (p.spec.subdomain = 'api'),
      ips: ['10.88.0.5'],
      hostname: 'web-node1',
      want: file('10.88.0.5\tweb-node1.api.default.svc.cluster.local\tweb-node1'),
    },
    {
      name: 'setHostnameAsFQDN hostname is cut to its first label',
      mutate: (p: ReturnType<typeof makeStaticPod>['pod']) => {
        p.spec.subdomain = 'api'
        p.spec.setHostnameAsFQDN = true
      },
      ips: ['10.88.0.5'],
      hostname: 'web-node1.api.default.svc.cluster.local',
      want: file('10.88.0.5\tweb-node1.api.default.svc.cluster.local\tweb-node1'),
    },
    {name: 'IPv6 pod IP', mutate: () => {}, ips: ['fd00:10:88::5'], hostname: 'web-node1', want: file('fd00:10:88::5\tweb-node1')},
    {
      name: 'dual-stack: one line per pod IP',
      mutate: () => {},
      ips: ['10.88.0.5', 'fd00:10:88::5'],
      hostname: 'web-node1',
      want: file('10.88.0.5\tweb-node1', 'fd00:10:88::5\tweb-node1'),
    },
    {
      name: 'hostAliases come last, one line per IP',
      mutate: (p: ReturnType<typeof makeStaticPod>['pod']) => {
        p.spec.hostAliases = [
          {ip: '127.0.0.1', hostnames: ['foo.local', 'bar.local']},
          {ip: '10.1.2.3', hostnames: ['foo.remote']},
        ]
      },
      ips: ['10.88.0.5'],
      hostname: 'web-node1',
      want: file('10.88.0.5\tweb-node1', '', '# Entries added by HostAliases.', '127.0.0.1\tfoo.local\tbar.local', '10.1.2.3\tfoo.remote'),
    },
  ])('$name', ({mutate, ips, hostname, want}) => {
    expect(managedHostsFile(makeStaticPod(mutate).pod, ips, hostname, 'cluster.local')).toBe(want)
  })
})

describe('hostNetworkHostsFile', () => {
  it("is the node's file under its own header, then the hostAliases", () => {
    const sp = makeStaticPod((p) => {
      p.spec.hostNetwork = true
      p.spec.hostAliases = [{ip: '10.1.2.3', hostnames: ['db']}]
    })
    expect(hostNetworkHostsFile(sp.pod, '127.0.0.1 localhost\n192.168.1.10 node1\n')).toBe(
      '# Kubernetes-managed hosts file (host network).\n127.0.0.1 localhost\n192.168.1.10 node1\n\n# Entries added by HostAliases.\n10.1.2.3\tdb\n',
    )
  })

  it('without hostAliases is the node file unchanged below the header', () => {
    const sp = makeStaticPod((p) => (p.spec.hostNetwork = true))
    expect(hostNetworkHostsFile(sp.pod, '127.0.0.1 localhost\n')).toBe('# Kubernetes-managed hosts file (host network).\n127.0.0.1 localhost\n')
  })
})

describe('which pods and containers get a hosts file', () => {
  it.each([
    {name: 'pod network', hostNetwork: false, want: true},
    {name: 'host network', hostNetwork: true, want: false},
  ])('needsManagedHosts: $name → $want', ({hostNetwork, want}) => {
    expect(needsManagedHosts(makeStaticPod((p) => (p.spec.hostNetwork = hostNetwork)).pod)).toBe(want)
  })

  it.each([
    {name: 'a container once the pod has an IP', mounts: [], ips: ['10.88.0.5'], want: true},
    {name: 'no pod IP yet', mounts: [], ips: [], want: false},
    {name: 'a container mounting its own /etc/hosts', mounts: [{name: 'hosts', mountPath: '/etc/hosts'}], ips: ['10.88.0.5'], want: false},
    {name: 'a container with other mounts', mounts: [{name: 'data', mountPath: '/data'}], ips: ['10.88.0.5'], want: true},
  ])('mountsEtcHosts: $name → $want', ({mounts, ips, want}) => {
    expect(mountsEtcHosts(makeContainer({volumeMounts: mounts}), ips)).toBe(want)
  })
})
