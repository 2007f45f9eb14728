// A pod's instance start (status.startTime, the activeDeadlineSeconds window): stamped at the
// first sync of each manifest version, kept across syncs, restored from a predecessor's record.
import {describe, expect, it} from 'vitest'
import {InstanceStarts} from '../../../src/loop/instance-starts.js'
import {basePod} from '../../support/pods.js'
import type {StaticPod} from '../../../src/api/types.js'

const version = (hash: string): StaticPod => {
  const sp = basePod()
  sp.pod.metadata.annotations = {...sp.pod.metadata.annotations, 'kubernetes.io/config.hash': hash}
  return sp
}

describe('InstanceStarts', () => {
  it('stamps the first sync of a version and keeps it across syncs', () => {
    const s = new InstanceStarts()
    expect(s.startOf(version('v1'), 1000)).toBe(1000)
    expect(s.startOf(version('v1'), 5000)).toBe(1000)
  })

  it('an edit is a new instance: a new start', () => {
    const s = new InstanceStarts()
    s.startOf(version('v1'), 1000)
    expect(s.startOf(version('v2'), 9000)).toBe(9000)
  })

  it('restores what a predecessor recorded for the same version, not for another', () => {
    const s = new InstanceStarts()
    const uid = version('v1').pod.metadata.uid
    s.restore(uid, 'v1', 500)
    expect(s.startOf(version('v1'), 9000)).toBe(500)
    expect(s.startOf(version('v2'), 9500)).toBe(9500)
  })

  it('forgets a removed pod', () => {
    const s = new InstanceStarts()
    const sp = version('v1')
    s.startOf(sp, 1000)
    s.forget(sp.pod.metadata.uid)
    expect(s.size).toBe(0)
    expect(s.startOf(sp, 7000)).toBe(7000)
  })
})
