import {describe, expect, it} from 'vitest'
import type {Container} from '../../../src/api/types.js'
import {parseQuantity, podQosClass} from '../../../src/kuberuntime/resources.js'

const c = (resources?: Container['resources']): Container => ({name: 'c', image: 'busybox', ...(resources ? {resources} : {})})

describe('podQosClass', () => {
  it.each<[string, Container[], string]>([
    ['no resources', [c()], 'BestEffort'],
    ['requests only', [c({requests: {cpu: '100m'}})], 'Burstable'],
    ['limits equal requests for cpu and memory', [c({requests: {cpu: '1', memory: '1Gi'}, limits: {cpu: '1000m', memory: '1024Mi'}})], 'Guaranteed'],
    ['limits only (requests default to limits)', [c({limits: {cpu: '500m', memory: '128Mi'}})], 'Guaranteed'],
    ['limits higher than requests', [c({requests: {cpu: '100m', memory: '64Mi'}, limits: {cpu: '200m', memory: '64Mi'}})], 'Burstable'],
    ['memory limit only', [c({limits: {memory: '64Mi'}})], 'Burstable'],
    ['one guaranteed, one best-effort container', [c({limits: {cpu: '1', memory: '1Gi'}}), c()], 'Burstable'],
    ['other resources do not count', [c({limits: {'ephemeral-storage': '1Gi'}})], 'BestEffort'],
  ])('%s → %s', (_name, containers, want) => {
    expect(podQosClass({containers})).toBe(want)
  })
})

describe('parseQuantity', () => {
  it.each<[string, number]>([
    ['1', 1],
    ['500m', 0.5],
    ['128Mi', 128 * 2 ** 20],
    ['1G', 1e9],
    ['1e3', 1000],
    ['1.5', 1.5],
  ])('%s → %d', (q, want) => expect(parseQuantity(q)).toBe(want))
  it('gives NaN for nonsense', () => expect(parseQuantity('lots')).toBeNaN())
})
