// oom_score_adj by the kubelet's policy: critical and Guaranteed last, BestEffort first.
import {describe, expect, it} from 'vitest'
import {namedPod} from '../../support/pods.js'
import {containerOomScoreAdj} from '../../../src/kuberuntime/oom-score.js'
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
