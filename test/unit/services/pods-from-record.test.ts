import {describe, expect, it} from 'vitest'
import {podFromRecord} from '../../../src/services/pods/managed-pods.js'
import type {StatusRecord} from '../../../src/api/status-record.js'

function record(name: string): StatusRecord {
  return {
    apiVersion: 'kube-node.io/v1',
    kind: 'PodStatusRecord',
    uid: 'u1',
    name,
    namespace: 'default',
    writer: {command: 'run', pid: 1, startedAt: 0, processStart: '1'},
    at: 0,
    manifestHash: 'h',
    status: {phase: 'Failed', reason: 'UserNamespacesNotSupported'},
  }
}

// A pod refused before it reached the runtime is known only by its record; `get pods NAME` finds
// it by its manifest name, which is the full name without `-<node name>`.
describe('podFromRecord', () => {
  it.each([
    ['web-node1', 'node1', 'web'],
    ['etcd-control-plane-1', 'control-plane-1', 'etcd'],
    ['my-app-ip-10-0-0-1', 'ip-10-0-0-1', 'my-app'],
  ])('%s on node %s is manifest %s', (name, node, manifest) => {
    expect(podFromRecord(record(name), node).manifestName).toBe(manifest)
  })
})
