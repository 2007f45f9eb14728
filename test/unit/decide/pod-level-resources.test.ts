import {describe, expect, it} from 'vitest'
import type {Container, PodSpec, StaticPod} from '../../../src/api/types.js'
import type {ResourceRequirements} from '../../../src/api/generated/types.js'
import {admitPod, podRequests, type NodeInfo} from '../../../src/decide/admission.js'
import {podQosClass} from '../../../src/kuberuntime/resources.js'
import {basePod} from '../../support/pods.js'

// Pod-level resources (spec.resources, PodLevelResources): where set, they replace the
// containers' requests for admission and decide the QoS class (the kubelet's PodRequests and
// ComputePodLevelQOS). Pod-level limits are refused by validation; the pure rules still follow
// the kubelet for them.
const c = (resources?: Container['resources']): Container => ({name: 'c', image: 'busybox', ...(resources ? {resources} : {})})
const spec = (pod: ResourceRequirements | undefined, containers: Container[]): PodSpec => ({containers, ...(pod ? {resources: pod} : {})})
const sp = (s: PodSpec): StaticPod => {
  const p = basePod()
  p.pod.spec = s
  return p
}
const Mi = 2 ** 20

describe('podRequests with pod-level resources', () => {
  it.each<[string, PodSpec, {cpuMilli: number; memoryBytes: number}]>([
    ['pod-level requests replace the containers\' sum', spec({requests: {cpu: '2', memory: '1Gi'}}, [c({requests: {cpu: '500m', memory: '64Mi'}})]), {cpuMilli: 2000, memoryBytes: 1024 * Mi}],
    ['only cpu at pod level: memory stays the containers\'', spec({requests: {cpu: '1'}}, [c({requests: {cpu: '100m', memory: '64Mi'}})]), {cpuMilli: 1000, memoryBytes: 64 * Mi}],
    ['a pod-level limit without a request, containers request nothing: the limit', spec({limits: {memory: '256Mi'}}, [c()]), {cpuMilli: 0, memoryBytes: 256 * Mi}],
    ['a pod-level limit without a request, containers request some: their sum', spec({limits: {cpu: '2'}}, [c({requests: {cpu: '300m'}})]), {cpuMilli: 300, memoryBytes: 0}],
    ['no pod-level resources: the containers\' sum', spec(undefined, [c({requests: {cpu: '300m', memory: '10Mi'}}), c({limits: {cpu: '200m'}})]), {cpuMilli: 500, memoryBytes: 10 * Mi}],
  ])('%s', (_name, s, want) => {
    expect(podRequests(sp(s).pod.spec)).toEqual(want)
  })

  it('admission rejects a pod whose pod-level cpu request does not fit, though its containers would', () => {
    const node: NodeInfo = {name: 'node1', maxPods: 110, capacity: {cpuMilli: 1000, memoryBytes: 4096 * Mi, pods: 110}, labels: {}, os: 'linux'}
    const small = sp(spec(undefined, [c({requests: {cpu: '100m'}})]))
    const big = sp(spec({requests: {cpu: '2'}}, [c({requests: {cpu: '100m'}})]))
    expect(admitPod(small, [], node)).toEqual({admit: true})
    expect(admitPod(big, [], node)).toMatchObject({admit: false, reason: 'OutOfcpu'})
  })
})

describe('podQosClass with pod-level resources', () => {
  it.each<[string, PodSpec, string]>([
    ['pod-level requests only → Burstable', spec({requests: {cpu: '1', memory: '1Gi'}}, [c()]), 'Burstable'],
    ['pod-level requests decide even with Guaranteed-looking containers', spec({requests: {cpu: '1'}}, [c({limits: {cpu: '1', memory: '1Gi'}})]), 'Burstable'],
    ['pod-level limits equal requests for cpu and memory → Guaranteed', spec({requests: {cpu: '1', memory: '1Gi'}, limits: {cpu: '1', memory: '1Gi'}}, [c()]), 'Guaranteed'],
    ['pod-level limits only, no container requests → requests default to them → Guaranteed', spec({limits: {cpu: '1', memory: '1Gi'}}, [c()]), 'Guaranteed'],
    ['pod-level limits only, containers request less → Burstable', spec({limits: {cpu: '1', memory: '1Gi'}}, [c({requests: {cpu: '100m'}})]), 'Burstable'],
    ['pod-level memory limit only → Burstable', spec({limits: {memory: '1Gi'}}, [c()]), 'Burstable'],
    ['pod-level hugepages only: not pod-level QoS, containers decide', spec({requests: {'hugepages-2Mi': '4Mi'}}, [c()]), 'BestEffort'],
  ])('%s', (_name, s, want) => {
    expect(podQosClass(s)).toBe(want)
  })
})
