// The notifier against a fake port and clock: what systemd would receive, in order.
import {describe, expect, it} from 'vitest'
import type {PodStatus} from '../../../src/api/types.js'
import {ReadyNotifier, type NotifyPort} from '../../../src/loop/ready-notifier.js'
import {FakeClock} from '../../support/fake-clock.js'
import {silentLogger} from '../../../src/util/logger.js'

const ready: PodStatus = {phase: 'Running', conditions: [{type: 'Ready', status: 'True'}]}
const notReady: PodStatus = {phase: 'Running', conditions: [{type: 'Ready', status: 'False'}]}

function setup(watchdogMs?: number, readyLimitMs?: number) {
  const sent: string[] = []
  const warned: string[] = []
  const port: NotifyPort = {send: async (lines) => void sent.push(lines.join(' '))}
  const clock = new FakeClock()
  const state = {synced: false, pods: [undefined, undefined] as (PodStatus | undefined)[], healthy: true}
  const logger = {...silentLogger, warn: (m: string) => void warned.push(m)}
  const n = new ReadyNotifier({port, mode: 'all', clock, logger, checkMs: 1000, watchdogMs, readyLimitMs})
  n.start({firstSyncDone: () => state.synced, pods: () => state.pods, healthy: () => state.healthy})
  return {sent, warned, clock, state, n}
}

describe('ReadyNotifier', () => {
  it('sends STATUS as the counts change and READY=1 once, only when every pod is Ready', async () => {
    const {sent, clock, state, n} = setup()
    state.synced = true
    state.pods = [ready, notReady]
    clock.advance(1000)
    clock.advance(1000)
    state.pods = [ready, ready]
    clock.advance(1000)
    state.pods = [ready, notReady]
    clock.advance(1000)
    state.pods = [ready, ready]
    clock.advance(1000)
    await n.stop()
    expect(sent).toEqual([
      'STATUS=0/2 pods ready (first sync in progress)',
      'STATUS=1/2 pods ready',
      'READY=1 STATUS=2/2 pods ready',
      'STATUS=1/2 pods ready',
      'STATUS=2/2 pods ready',
      'STOPPING=1 STATUS=stopping; pods keep running',
    ])
  })

  it('pings the watchdog at its interval while the loop is healthy, and not after stop', async () => {
    const {sent, clock, state, n} = setup(500)
    clock.advance(500)
    state.healthy = false
    clock.advance(500)
    state.healthy = true
    clock.advance(500)
    await n.stop()
    clock.advance(5000)
    expect(sent.filter((s) => s === 'WATCHDOG=1')).toHaveLength(3)
    expect(sent.at(-1)).toMatch(/^STOPPING=1/)
  })

  it('sends READY=1 at the limit when a pod never becomes Ready, with a warning, and keeps STATUS up to date', async () => {
    const {sent, warned, clock, state, n} = setup()
    state.synced = true
    state.pods = [ready, notReady]
    clock.advance(59_000)
    expect(sent.some((s) => s.includes('READY=1'))).toBe(false)
    clock.advance(1_000)
    expect(sent.filter((s) => s.includes('READY=1'))).toEqual(['READY=1'])
    expect(warned).toEqual(['Telling systemd kube-node is ready although not every pod is at its goal; STATUS= keeps the counts'])
    state.pods = [ready, ready]
    clock.advance(1_000)
    await n.stop()
    expect(sent).toEqual(['STATUS=0/2 pods ready (first sync in progress)', 'STATUS=1/2 pods ready', 'READY=1', 'STATUS=2/2 pods ready', 'STOPPING=1 STATUS=stopping; pods keep running'])
  })

  it('a shorter --notify-ready-timeout sends READY=1 at that moment, even before the first sync is done', () => {
    const {sent, clock} = setup(undefined, 2_500)
    clock.advance(2_499)
    expect(sent.some((s) => s.includes('READY=1'))).toBe(false)
    clock.advance(1)
    expect(sent.at(-1)).toBe('READY=1')
  })

  it('a longer limit than 60 s is cut to 60 s', () => {
    const {sent, clock} = setup(undefined, 3_600_000)
    clock.advance(60_000)
    expect(sent.at(-1)).toBe('READY=1')
  })
})
