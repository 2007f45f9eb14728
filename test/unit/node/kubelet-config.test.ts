// --config: the KubeletConfiguration fields kube-node honours, bad values named by field.
import {describe, expect, it} from 'vitest'
import {parseKubeletConfig} from '../../../src/node/kubelet-config.js'
import {InvalidInputError} from '../../../src/util/errors.js'

const head = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n'

describe('parseKubeletConfig', () => {
  it('reads the fields kube-node uses, converting durations and quantities', () => {
    const {values, unknown} = parseKubeletConfig(
      head +
        `staticPodPath: /etc/kubernetes/manifests
syncFrequency: 1m30s
fileCheckFrequency: 20s
runtimeRequestTimeout: 2m
containerRuntimeEndpoint: unix:///run/containerd/containerd.sock
clusterDNS: [10.96.0.10]
clusterDomain: cluster.local
readOnlyPort: 0
healthzPort: 10248
maxPods: 50
containerLogMaxSize: 10Mi
staticPodURLHeader: {Authorization: ["Bearer x"]}
seccompDefault: false
crashLoopBackOff: {maxContainerRestartPeriod: 1m}
staticPodValidation: warn
cgroupDriver: systemd
`,
      'kubelet.yaml',
    )
    expect(values).toMatchObject({
      staticPodPath: '/etc/kubernetes/manifests',
      syncFrequencyMs: 90_000,
      fileCheckFrequencyMs: 20_000,
      seccompDefault: false,
      staticPodValidation: 'warn',
      maxContainerRestartPeriodMs: 60_000,
      runtimeRequestTimeoutMs: 120_000,
      clusterDNS: ['10.96.0.10'],
      readOnlyPort: 0,
      maxPods: 50,
      containerLogMaxSizeBytes: 10 * 1024 * 1024,
      staticPodURLHeader: {Authorization: ['Bearer x']},
    })
    expect(unknown).toEqual(['cgroupDriver'])
  })

  it.each([
    ['syncFrequency: soon', 'field syncFrequency: must be a duration such as 20s or 1m'],
    ['syncFrequency: 20', 'field syncFrequency: must be a duration with a unit, such as 20s or 1m (got 20)'],
    ['crashLoopBackOff: {maxContainerRestartPeriod: 10m}', 'field crashLoopBackOff.maxContainerRestartPeriod: must be between 1s and 300s'],
    ['crashLoopBackOff: {maxContainerRestartPeriod: 30}', 'field crashLoopBackOff.maxContainerRestartPeriod: must be a duration with a unit, such as 20s or 1m (got 30)'],
    ['fileCheckFrequency: "20"', 'field fileCheckFrequency: must be a duration with a unit, such as 20s or 1m (got "20")'],
    ['readOnlyPort: 70000', 'field readOnlyPort: must be a port number between 0 and 65535'],
    ['staticPodValidation: lenient', 'field staticPodValidation: must be one of strict, warn, ignore'],
    ['maxPods: -1', 'field maxPods: must be a positive whole number'],
    ['clusterDNS: 10.0.0.1', 'field clusterDNS: must be a list of strings'],
  ])('rejects %s', (line, message) => {
    expect(() => parseKubeletConfig(head + line + '\n', 'kubelet.yaml')).toThrowError(new InvalidInputError(`kubelet.yaml, document 0, ${message}`).message)
  })

  it('reads YAML as the kubelet does (YAML 1.1: yes is true, 017 is octal)', () => {
    const {values} = parseKubeletConfig(head + 'seccompDefault: yes\nmaxPods: 017\n', 'kubelet.yaml')
    expect(values).toMatchObject({seccompDefault: true, maxPods: 15})
  })

  it.each([
    ['a duplicate key', 'maxPods: 5\nmaxPods: 6\n', /map keys must be unique at line 4/],
    ['two documents', 'maxPods: 5\n---\nmaxPods: 6\n', /one YAML document/],
    ['an invalid escape', 'clusterDomain: "a\\qb"\n', /invalid YAML/],
  ])('rejects %s, naming the file', (_name, text, message) => {
    expect(() => parseKubeletConfig(head + text, 'kubelet.yaml')).toThrowError(message)
  })

  it('rejects another kind', () => {
    expect(() => parseKubeletConfig('apiVersion: v1\nkind: Pod\n', 'k.yaml')).toThrow(InvalidInputError)
  })
})
