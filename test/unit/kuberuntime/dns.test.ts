import {describe, expect, it} from 'vitest'
import type {Pod} from '../../../src/api/types.js'
import type {DNSConfig} from '../../../src/cri/api.js'
import {parseResolvConf, podDnsConfig} from '../../../src/kuberuntime/dns.js'
import {HOST_DNS, podOf} from '../../support/pods.js'

describe('parseResolvConf', () => {
  it('reads nameservers, the last search line and options, ignoring comments', () => {
    const text = [
      '# generated',
      'nameserver 10.0.0.2',
      'nameserver 10.0.0.3 ; second',
      'search old.example',
      'search example.com. corp.example .',
      'domain ignored.example',
      'options ndots:2 timeout:1',
      'options ndots:3 rotate',
      '',
    ].join('\n')
    expect(parseResolvConf(text)).toEqual({
      servers: ['10.0.0.2', '10.0.0.3'],
      searches: ['example.com', 'corp.example'],
      options: ['ndots:3', 'timeout:1', 'rotate'],
    })
  })

  it('gives empty lists for an empty file', () => {
    expect(parseResolvConf('')).toEqual({servers: [], searches: [], options: []})
  })
})

describe('podDnsConfig', () => {
  const cluster = {hostDns: HOST_DNS, clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local'}
  const noCluster = {...cluster, clusterDNS: []}
  const clusterFirst: DNSConfig = {
    servers: ['10.96.0.10'],
    searches: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'lan'],
    options: ['ndots:5'],
  }

  it.each<[string, (p: Pod) => void, typeof cluster, DNSConfig]>([
    ['ClusterFirst with cluster DNS', () => {}, cluster, clusterFirst],
    ['ClusterFirst without cluster DNS → host', () => {}, noCluster, HOST_DNS],
    ['ClusterFirst on the host network → host', (p) => (p.spec!.hostNetwork = true), cluster, HOST_DNS],
    [
      'ClusterFirstWithHostNet on the host network → cluster',
      (p) => Object.assign(p.spec!, {hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet'}),
      cluster,
      clusterFirst,
    ],
    ['Default → host', (p) => (p.spec!.dnsPolicy = 'Default'), cluster, HOST_DNS],
    ['no policy written → ClusterFirst', (p) => delete p.spec!.dnsPolicy, cluster, clusterFirst],
    ['None → empty', (p) => (p.spec!.dnsPolicy = 'None'), cluster, {servers: [], searches: [], options: []}],
    [
      'None + dnsConfig → only dnsConfig',
      (p) =>
        Object.assign(p.spec!, {
          dnsPolicy: 'None',
          dnsConfig: {nameservers: ['1.1.1.1'], searches: ['a.example'], options: [{name: 'ndots', value: '1'}, {name: 'edns0'}]},
        }),
      cluster,
      {servers: ['1.1.1.1'], searches: ['a.example'], options: ['ndots:1', 'edns0']},
    ],
    [
      'ClusterFirst + dnsConfig → merged, duplicates dropped, pod options win',
      (p) => (p.spec!.dnsConfig = {nameservers: ['10.96.0.10', '8.8.8.8'], searches: ['lan', 'extra'], options: [{name: 'ndots', value: '2'}]}),
      cluster,
      {
        servers: ['10.96.0.10', '8.8.8.8'],
        searches: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'lan', 'extra'],
        options: ['ndots:2'],
      },
    ],
  ])('%s', (_name, mutate, input, expected) => {
    expect(podDnsConfig(podOf(mutate), input)).toEqual(expected)
  })

  it('uses the pod namespace in the cluster search list', () => {
    const pod = podOf((p) => (p.metadata.namespace = 'kube-system'))
    expect(podDnsConfig(pod, cluster).searches[0]).toBe('kube-system.svc.cluster.local')
  })

  it('keeps at most 32 search domains', () => {
    const many = Array.from({length: 40}, (_, i) => `d${i}.example`)
    const pod = podOf((p) => (p.spec.dnsConfig = {searches: many}))
    expect(podDnsConfig(pod, {...noCluster, hostDns: {servers: [], searches: [], options: []}}).searches).toHaveLength(32)
  })
})
