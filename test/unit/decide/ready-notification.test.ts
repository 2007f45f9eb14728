import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {PodStatus} from '../../../src/api/types.js'
import {READY_WAIT_LIMIT_MS, readiness, watchdogIntervalMs, type NotifyReadyMode} from '../../../src/decide/ready-notification.js'

const readyPod: PodStatus = {phase: 'Running', conditions: [{type: 'Ready', status: 'True'}], containerStatuses: [{name: 'm', containerID: 'containerd://1', ready: true, restartCount: 0, image: 'i', imageID: ''}]}
const startedNotReady: PodStatus = {phase: 'Running', conditions: [{type: 'Ready', status: 'False'}], containerStatuses: [{name: 'm', containerID: 'containerd://2', ready: false, restartCount: 0, image: 'i', imageID: ''}]}
const pending: PodStatus = {phase: 'Pending', containerStatuses: [{name: 'm', ready: false, restartCount: 0, image: 'i', imageID: '', state: {waiting: {reason: 'ContainerCreating'}}}]}
const succeeded: PodStatus = {phase: 'Succeeded'}
const failed: PodStatus = {phase: 'Failed'}

describe('readiness: when watch sends READY=1', () => {
  it.each<{name: string; mode: NotifyReadyMode; firstSyncDone: boolean; pods: (PodStatus | undefined)[]; ready: boolean; status: string}>([
    {name: 'before the first full sync: never ready, even with every pod Ready', mode: 'all', firstSyncDone: false, pods: [readyPod], ready: false, status: '1/1 pods ready (first sync in progress)'},
    {name: 'all: every pod Running and Ready', mode: 'all', firstSyncDone: true, pods: [readyPod, readyPod], ready: true, status: '2/2 pods ready'},
    {name: 'all: one pod started but not Ready', mode: 'all', firstSyncDone: true, pods: [readyPod, startedNotReady], ready: false, status: '1/2 pods ready'},
    {name: 'all: a pod not synced yet', mode: 'all', firstSyncDone: true, pods: [readyPod, undefined], ready: false, status: '1/2 pods ready'},
    {name: 'all: finished pods (Succeeded or Failed) count as at their goal', mode: 'all', firstSyncDone: true, pods: [readyPod, succeeded, failed], ready: true, status: '3/3 pods ready'},
    {name: 'all: no pods at all → ready after the first sync', mode: 'all', firstSyncDone: true, pods: [], ready: true, status: '0/0 pods ready'},
    {name: 'started: a started pod that is not Ready counts', mode: 'started', firstSyncDone: true, pods: [readyPod, startedNotReady], ready: true, status: '2/2 pods started'},
    {name: 'started: a pod still creating does not', mode: 'started', firstSyncDone: true, pods: [startedNotReady, pending], ready: false, status: '1/2 pods started'},
  ])('$name', ({mode, firstSyncDone, pods, ready, status}) => {
    const r = readiness({mode, firstSyncDone, pods, waitedMs: 0, limitMs: READY_WAIT_LIMIT_MS})
    expect(r.ready).toBe(ready)
    expect(r.status).toBe(status)
    expect(r.reason).not.toBe('')
    expect(r.limitReached).toBe(false)
  })
})

describe('readiness: READY=1 never waits beyond the limit', () => {
  it('is 60 s, well under (at most a fifth of) the shipped unit\'s TimeoutStartSec', () => {
    expect(READY_WAIT_LIMIT_MS).toBe(60_000)
    const unit = readFileSync(join(import.meta.dirname, '../../../contrib/kube-node.service'), 'utf8')
    const [, n = '', unitName = ''] = /^TimeoutStartSec=(\d+)(min|s)$/m.exec(unit) ?? []
    const timeoutMs = Number(n) * (unitName === 'min' ? 60_000 : 1000)
    expect(timeoutMs).toBeGreaterThanOrEqual(5 * READY_WAIT_LIMIT_MS)
  })

  it.each<{name: string; firstSyncDone: boolean; pods: (PodStatus | undefined)[]; waitedMs: number; limitMs: number; ready: boolean; limitReached: boolean; status: string}>([
    {name: 'a pod never Ready, just before the limit: still waiting', firstSyncDone: true, pods: [readyPod, startedNotReady], waitedMs: 59_999, limitMs: 60_000, ready: false, limitReached: false, status: '1/2 pods ready'},
    {name: 'a pod never Ready, at the limit: ready, the counts stay in STATUS', firstSyncDone: true, pods: [readyPod, startedNotReady], waitedMs: 60_000, limitMs: 60_000, ready: true, limitReached: true, status: '1/2 pods ready'},
    {name: 'the first sync not done at the limit: ready too', firstSyncDone: false, pods: [undefined], waitedMs: 60_000, limitMs: 60_000, ready: true, limitReached: true, status: '0/1 pods ready (first sync in progress)'},
    {name: 'a shorter limit (--notify-ready-timeout 5s)', firstSyncDone: true, pods: [pending], waitedMs: 5_000, limitMs: 5_000, ready: true, limitReached: true, status: '0/1 pods ready'},
    {name: 'a longer limit asked for is cut to 60 s', firstSyncDone: true, pods: [pending], waitedMs: 60_000, limitMs: 3_600_000, ready: true, limitReached: true, status: '0/1 pods ready'},
    {name: 'every pod Ready after the limit: an ordinary ready', firstSyncDone: true, pods: [readyPod], waitedMs: 600_000, limitMs: 60_000, ready: true, limitReached: false, status: '1/1 pods ready'},
  ])('$name', ({firstSyncDone, pods, waitedMs, limitMs, ready, limitReached, status}) => {
    const r = readiness({mode: 'all', firstSyncDone, pods, waitedMs, limitMs})
    expect({ready: r.ready, limitReached: r.limitReached, status: r.status}).toEqual({ready, limitReached, status})
    if (limitReached) expect(r.reason).toMatch(/^waited \d+s, the longest kube-node waits: /)
  })
})

describe('watchdogIntervalMs', () => {
  it.each<{name: string; env: {WATCHDOG_USEC?: string; WATCHDOG_PID?: string}; want: number | undefined}>([
    {name: 'no WATCHDOG_USEC → no watchdog', env: {}, want: undefined},
    {name: 'half of WATCHDOG_USEC', env: {WATCHDOG_USEC: '30000000'}, want: 15_000},
    {name: 'WATCHDOG_PID is ours', env: {WATCHDOG_USEC: '2000000', WATCHDOG_PID: '42'}, want: 1000},
    {name: 'WATCHDOG_PID is another process → not ours to ping', env: {WATCHDOG_USEC: '2000000', WATCHDOG_PID: '7'}, want: undefined},
    {name: 'garbage → no watchdog', env: {WATCHDOG_USEC: 'soon'}, want: undefined},
  ])('$name', ({env, want}) => expect(watchdogIntervalMs(env, 42)).toBe(want))
})
