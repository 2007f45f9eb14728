import {describe, expect, it} from 'vitest'
import type {Container, ContainerStatus, PodSpec} from '../../../src/api/types.js'
import {podPhase} from '../../../src/status/phase.js'

// The phase consequences of container restart policies and rules (the kubelet's getPhase with
// ContainerRestartRules): a stopped container counts as "for good" only when its rules and
// policies would not restart it; a failed init container fails the pod only then.
type Policy = 'Always' | 'OnFailure' | 'Never'
const c = (name: string, own?: Policy, inCodes?: number[]): Container => ({
  name,
  image: 'busybox',
  ...(own ? {restartPolicy: own} : {}),
  ...(inCodes ? {restartPolicyRules: [{action: 'Restart', exitCodes: {operator: 'In', values: inCodes}}]} : {}),
})
const terminated = (name: string, exitCode: number): ContainerStatus =>
  ({name, image: 'busybox', imageID: '', ready: false, restartCount: 0, state: {terminated: {exitCode}}})
const running = (name: string): ContainerStatus =>
  ({name, image: 'busybox', imageID: '', ready: true, restartCount: 0, state: {running: {}}})
const backingOff = (name: string, exitCode: number): ContainerStatus =>
  ({name, image: 'busybox', imageID: '', ready: false, restartCount: 1, state: {waiting: {reason: 'CrashLoopBackOff'}}, lastState: {terminated: {exitCode}}})

interface Row {
  name: string
  pod: Policy
  containers: Container[]
  statuses: ContainerStatus[]
  inits?: Container[]
  initStatuses?: ContainerStatus[]
  phase: string
}

describe('podPhase with container restart policies and rules', () => {
  it.each<Row>([
    {name: 'pod Never, a rule will restart the exit-42 container → Running', pod: 'Never', containers: [c('a', 'Never', [42])], statuses: [terminated('a', 42)], phase: 'Running'},
    {name: 'pod Never, no rule matches exit 1 → Failed', pod: 'Never', containers: [c('a', 'Never', [42])], statuses: [terminated('a', 1)], phase: 'Failed'},
    {name: 'pod Never, rule, exit 0 → Succeeded', pod: 'Never', containers: [c('a', 'Never', [42])], statuses: [terminated('a', 0)], phase: 'Succeeded'},
    {name: 'pod Never, backing off after exit 42 → Running', pod: 'Never', containers: [c('a', 'Never', [42])], statuses: [backingOff('a', 42)], phase: 'Running'},
    {name: 'pod Always, container Never exited 1 → Failed', pod: 'Always', containers: [c('a', 'Never')], statuses: [terminated('a', 1)], phase: 'Failed'},
    {name: 'pod Always, container OnFailure exited 0 → Succeeded', pod: 'Always', containers: [c('a', 'OnFailure')], statuses: [terminated('a', 0)], phase: 'Succeeded'},
    {name: 'pod Always, one Never container done, one restarting → Running', pod: 'Always', containers: [c('a', 'Never'), c('b')], statuses: [terminated('a', 0), terminated('b', 1)], phase: 'Running'},
    {name: 'pod Never, container Always exited 0 → Running', pod: 'Never', containers: [c('a', 'Always')], statuses: [terminated('a', 0)], phase: 'Running'},
    {
      name: 'init failed, its rule restarts exit 42 under pod Never → Pending',
      pod: 'Never', inits: [c('i', 'Never', [42])], initStatuses: [terminated('i', 42)], containers: [c('a')], statuses: [], phase: 'Pending',
    },
    {
      name: 'init failed with exit 1, no rule matches → Failed',
      pod: 'Never', inits: [c('i', 'Never', [42])], initStatuses: [terminated('i', 1)], containers: [c('a')], statuses: [], phase: 'Failed',
    },
    {
      name: 'init with own Never failed under pod Always → Failed',
      pod: 'Always', inits: [c('i', 'Never')], initStatuses: [terminated('i', 1)], containers: [c('a')], statuses: [], phase: 'Failed',
    },
    {name: 'unchanged: pod OnFailure, exit 1 → Running', pod: 'OnFailure', containers: [c('a')], statuses: [terminated('a', 1)], phase: 'Running'},
    {name: 'unchanged: running container → Running', pod: 'Never', containers: [c('a', 'Never', [42])], statuses: [running('a')], phase: 'Running'},
  ])('$name', (row) => {
    const spec: PodSpec = {restartPolicy: row.pod, containers: row.containers, ...(row.inits ? {initContainers: row.inits} : {})}
    expect(podPhase(spec, row.initStatuses ?? [], row.statuses)).toBe(row.phase)
  })
})
