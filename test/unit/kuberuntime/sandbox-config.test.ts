import {describe, expect, it} from 'vitest'
import type {Pod, StaticPod} from '../../../src/api/types.js'
import type {NamespaceOption, PortMapping} from '../../../src/cri/api.js'
import {HASH_VERSION, sandboxHash} from '../../../src/kuberuntime/hash.js'
import {buildSandboxConfig, type SandboxContext} from '../../../src/kuberuntime/sandbox-config.js'
import {SandboxConfigError} from '../../../src/kuberuntime/errors.js'
import {HOST_DNS, UID, makeContainer, makeStaticPod} from '../../support/pods.js'

const ctx: SandboxContext = {
  attempt: 2,
  podLogsDir: '/var/log/pods',
  hostDns: HOST_DNS,
  clusterDNS: ['10.96.0.10'],
  clusterDomain: 'cluster.local',
}

const build = (mutate: (p: StaticPod['pod']) => void = () => {}, c: SandboxContext = ctx) => buildSandboxConfig(makeStaticPod(mutate), c)

describe('buildSandboxConfig', () => {
  it('sets metadata, log directory and the exact labels and annotations', () => {
    const sp = makeStaticPod()
    const config = buildSandboxConfig(sp, ctx)
    expect(config.metadata).toEqual({name: 'web-node1', namespace: 'default', uid: UID, attempt: 2})
    expect(config.logDirectory).toBe(`/var/log/pods/default_web-node1_${UID}`)
    expect(config.labels).toEqual({
      app: 'web',
      'io.kubernetes.pod.name': 'web-node1',
      'io.kubernetes.pod.namespace': 'default',
      'io.kubernetes.pod.uid': UID,
      'kube-node.io/managed': 'true',
      'kube-node.io/node': 'node1',
      'kube-node.io/manifest-name': 'web',
    })
    expect(config.annotations).toEqual({
      note: 'hi',
      'kube-node.io/sandbox-hash': sandboxHash(sp.pod),
      'kube-node.io/hash-version': HASH_VERSION,
    })
  })

  it('does not let pod labels override the identity labels', () => {
    const config = build((p) => (p.metadata.labels = {'io.kubernetes.pod.uid': 'forged', 'kube-node.io/managed': 'no'}))
    expect(config.labels['io.kubernetes.pod.uid']).toBe(UID)
    expect(config.labels['kube-node.io/managed']).toBe('true')
  })

  describe('hostname', () => {
    const longName = 'a'.repeat(61) + '-.b-node1'
    it.each<[string, (p: StaticPod['pod']) => void, string]>([
      ['pod name by default', () => {}, 'web-node1'],
      ['spec.hostname when set', (p) => (p.spec.hostname = 'box'), 'box'],
      ['empty on the host network', (p) => Object.assign(p.spec, {hostNetwork: true, hostname: 'box'}), ''],
      ['pod name cut to 63 characters, trailing - and . removed', (p) => (p.metadata.name = longName), 'a'.repeat(61)],
      ['a long name cut mid-word keeps 63 characters', (p) => (p.metadata.name = 'x'.repeat(70)), 'x'.repeat(63)],
      ['subdomain alone does not change it', (p) => (p.spec.subdomain = 'sub'), 'web-node1'],
      [
        'FQDN with setHostnameAsFQDN and a subdomain',
        (p) => Object.assign(p.spec, {subdomain: 'sub', setHostnameAsFQDN: true}),
        'web-node1.sub.default.svc.cluster.local',
      ],
    ])('%s', (_name, mutate, expected) => {
      expect(build(mutate).hostname).toBe(expected)
    })

    it.each<[string, (p: StaticPod['pod']) => void]>([
      ['an invalid spec.hostname', (p) => (p.spec.hostname = 'Not_A_Label')],
      ['an FQDN over 64 characters', (p) => Object.assign(p.spec, {hostname: 'h'.repeat(40), subdomain: 'sub', setHostnameAsFQDN: true})],
    ])('rejects %s', (_name, mutate) => {
      expect(() => build(mutate)).toThrow(SandboxConfigError)
    })
  })

  it.each<[string, (p: Pod) => void, NamespaceOption]>([
    ['default', () => {}, {network: 'POD', ipc: 'POD', pid: 'CONTAINER'}],
    ['hostNetwork', (p) => (p.spec!.hostNetwork = true), {network: 'NODE', ipc: 'POD', pid: 'CONTAINER'}],
    ['hostIPC', (p) => (p.spec!.hostIPC = true), {network: 'POD', ipc: 'NODE', pid: 'CONTAINER'}],
    ['hostPID', (p) => (p.spec!.hostPID = true), {network: 'POD', ipc: 'POD', pid: 'NODE'}],
    ['shareProcessNamespace', (p) => (p.spec!.shareProcessNamespace = true), {network: 'POD', ipc: 'POD', pid: 'POD'}],
    ['hostPID wins over shareProcessNamespace', (p) => Object.assign(p.spec!, {hostPID: true, shareProcessNamespace: true}), {network: 'POD', ipc: 'POD', pid: 'NODE'}],
  ])('namespace options: %s', (_name, mutate, expected) => {
    expect(build(mutate).linux?.securityContext?.namespaceOptions).toEqual(expected)
  })

  it.each<[string, (p: StaticPod['pod']) => void, PortMapping[]]>([
    ['no ports', () => {}, []],
    ['ports without hostPort are left out', (p) => (p.spec.containers[0]!.ports = [{containerPort: 80}]), []],
    [
      'hostPort with protocol and host IP',
      (p) =>
        (p.spec.containers[0]!.ports = [
          {containerPort: 80, hostPort: 8080},
          {containerPort: 53, hostPort: 5353, protocol: 'UDP', hostIP: '127.0.0.1'},
        ]),
      [
        {protocol: 'TCP', containerPort: 80, hostPort: 8080, hostIp: ''},
        {protocol: 'UDP', containerPort: 53, hostPort: 5353, hostIp: '127.0.0.1'},
      ],
    ],
    [
      'across regular containers, duplicates dropped, init containers ignored',
      (p) => {
        p.spec.containers[0]!.ports = [{containerPort: 80, hostPort: 8080}]
        p.spec.containers.push(makeContainer({name: 'two', ports: [{containerPort: 80, hostPort: 8080, protocol: 'TCP'}, {containerPort: 81, hostPort: 8081}]}))
        p.spec.initContainers = [makeContainer({name: 'init', ports: [{containerPort: 90, hostPort: 9090}]})]
      },
      [
        {protocol: 'TCP', containerPort: 80, hostPort: 8080, hostIp: ''},
        {protocol: 'TCP', containerPort: 81, hostPort: 8081, hostIp: ''},
      ],
    ],
  ])('port mappings: %s', (_name, mutate, expected) => {
    expect(build(mutate).portMappings).toEqual(expected)
  })

  it('uses the cluster DNS for ClusterFirst and the host resolver on the host network', () => {
    expect(build().dnsConfig?.servers).toEqual(['10.96.0.10'])
    expect(build((p) => (p.spec.hostNetwork = true)).dnsConfig).toEqual(HOST_DNS)
  })

  it('builds the Linux security context from the pod', () => {
    const linux = build((p) => {
      p.spec.securityContext = {
        runAsUser: 1000,
        runAsGroup: 3000,
        fsGroup: 2000,
        supplementalGroups: [4000, 2000],
        sysctls: [
          {name: 'net.core.somaxconn', value: '1024'},
          {name: 'kernel/shm_rmid_forced', value: '1'},
          {name: 'net/ipv4/conf/eth0.100/forwarding', value: '1'},
        ],
      }
    }).linux
    expect(linux?.cgroupParent).toBe('')
    expect(linux?.securityContext).toMatchObject({
      runAsUser: {value: 1000},
      runAsGroup: {value: 3000},
      supplementalGroups: [2000, 4000],
      privileged: false,
      seccomp: {profileType: 'RuntimeDefault', localhostRef: ''},
    })
    expect(linux?.sysctls).toEqual({
      'net.core.somaxconn': '1024',
      'kernel.shm_rmid_forced': '1',
      'net.ipv4.conf.eth0/100.forwarding': '1',
    })
  })

  it('is privileged when any container is', () => {
    const config = build((p) => (p.spec.initContainers = [makeContainer({name: 'init', securityContext: {privileged: true}})]))
    expect(config.linux?.securityContext?.privileged).toBe(true)
  })

  it('leaves runAsUser and groups unset when the pod does not set them', () => {
    const sc = build().linux?.securityContext
    expect(sc?.runAsUser).toBeUndefined()
    expect(sc?.supplementalGroups).toBeUndefined()
  })
})
