import {describe, expect, it} from 'vitest'
import {needsPodIP} from '../../../src/sync/executor.js'
import type {Container, StaticPod} from '../../../src/api/types.js'

function sp(container: Container, hostNetwork = false): StaticPod {
  return {manifestName: 'p', source: {kind: 'file', location: 'p.yaml', document: 0}, pod: {metadata: {name: 'p-n', namespace: 'default', uid: 'u'}, spec: {hostNetwork, containers: [container]}}}
}

describe('needsPodIP', () => {
  it.each<[string, Container, boolean, boolean]>([
    ['plain container', {name: 'c', image: 'i'}, false, false],
    ['env from status.podIP', {name: 'c', image: 'i', env: [{name: 'IP', valueFrom: {fieldRef: {fieldPath: 'status.podIP'}}}]}, false, true],
    ['postStart httpGet without host', {name: 'c', image: 'i', lifecycle: {postStart: {httpGet: {port: 80, path: '/'}}}}, false, true],
    ['postStart httpGet with host', {name: 'c', image: 'i', lifecycle: {postStart: {httpGet: {host: 'x', port: 80}}}}, false, false],
    ["host network (the IP is the host's)", {name: 'c', image: 'i', env: [{name: 'IP', valueFrom: {fieldRef: {fieldPath: 'status.podIP'}}}]}, true, false],
  ])('%s', (_name, container, hostNetwork, expected) => {
    expect(needsPodIP(sp(container, hostNetwork), container)).toBe(expected)
  })
})
