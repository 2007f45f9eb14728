// oom_score_adj by the kubelet's policy: critical and Guaranteed last, BestEffort first.
import {describe, expect, it} from 'vitest'
import {namedPod} from '../../support/pods.js'
import {containerOomScoreAdj} from '../../../src/kuberuntime/resources.js'
import type {Container, Pod} from '../../../src/api/types.js'

const GiB = 2 ** 30
function pod(resources: Container['resources'], priorityClassName?: string): [Pod, Container] {
  const c: Container = {name: 'c', image: 'i', ...(resources ? {resources} : {})}
  const mutate = (p: Pod): void => {
    if (priorityClassName && p.spec) p.spec.priorityClassName = priorityClassName
  }
  return [namedPod('p', [c], {mutate}).pod, c]
}

describe('containerOomScoreAdj', () => {
  it.each<[string, Container['resources'], string | undefined, number]>([
    ['BestEffort', undefined, undefined, 1000],
    ['Guaranteed', {requests: {cpu: '1', memory: '1Gi'}, limits: {cpu: '1', memory: '1Gi'}}, undefined, -997],
    ['system-node-critical (etcd), though Burstable', {requests: {cpu: '100m', memory: '100Mi'}}, 'system-node-critical', -997],
    ['Burstable asking a quarter of memory', {requests: {memory: '1Gi'}}, undefined, 750],
    ['Burstable asking nothing of memory', {requests: {cpu: '100m'}}, undefined, 999],
    ['Burstable asking all the memory', {requests: {memory: '4Gi'}}, undefined, 3],
  ])('%s', (_name, resources, priority, want) => {
    const [p, c] = pod(resources, priority)
    expect(containerOomScoreAdj(p, c, 4 * GiB)).toBe(want)
  })
})

describe('containerOomScoreAdj with pod-level requests and sidecars (kubelet qos/policy.go)', () => {
  const c = (name: string, memory?: string, restartPolicy?: 'Always'): Container => ({
    name,
    image: 'i',
    resources: {requests: {cpu: '100m', ...(memory ? {memory} : {})}},
    ...(restartPolicy ? {restartPolicy} : {}),
  })
  it.each<[string, Container[], Container[], Record<string, string> | undefined, string, number]>([
    // 2 GiB at pod level, 1 GiB asked by the two containers: 512 MiB more each → (512Mi+512Mi)/4Gi.
    ['the pod-level surplus is shared by every container', [c('a', '512Mi'), c('b', '512Mi')], [], {memory: '2Gi'}, 'a', 750],
    ['without pod-level requests, only the container\'s own', [c('a', '512Mi'), c('b', '512Mi')], [], undefined, 'a', 875],
    // The sidecar asks nothing, so it would be 1000 - 0 → 999; it is held to the least regular container's 750.
    ['a sidecar is killed no sooner than the least-requesting regular container', [c('a', '1Gi'), c('b', '2Gi')], [c('side', undefined, 'Always')], undefined, 'side', 750],
    ['a sidecar asking more keeps its own lower score', [c('a', '1Gi')], [c('side', '2Gi', 'Always')], undefined, 'side', 500],
  ])('%s', (_name, containers, initContainers, podRequests, name, want) => {
    const p = namedPod('p', containers, {mutate: (pod) => {
      if (initContainers.length > 0) pod.spec.initContainers = initContainers
      if (podRequests) pod.spec.resources = {requests: podRequests}
    }}).pod
    const target = [...containers, ...initContainers].find((x) => x.name === name)!
    expect(containerOomScoreAdj(p, target, 4 * GiB)).toBe(want)
  })
})
