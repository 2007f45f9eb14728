// The notifier against a fake port and clock: what systemd would receive, in order.
import {describe, expect, it} from 'vitest'
import type {PodStatus} from '../../../src/api/types.js'
import {ReadyNotifier, type NotifyPort} from '../../../src/loop/ready-notifier.js'
import {FakeClock} from '../../support/fake-clock.js'
import {silentLogger} from '../../../src/util/logger.js'

const ready: PodStatus = {phase: 'Running', conditions: [{type: 'Ready', status: 'True'}]}
const notReady: PodStatus = {phase: 'Running', conditions: [{type: 'Ready', status: 'False'}]}

function setup(watchdogMs?: number) {
  const sent: string[] = []
  const port: NotifyPort = {send: async (lines) => void sent.push(lines.join(' '))}
  const clock = new FakeClock()
  const state = {synced: false, pods: [undefined, undefined] as (PodStatus | undefined)[], healthy: true}
  const n = new ReadyNotifier({port, mode: 'all', clock, logger: silentLogger, checkMs: 1000, watchdogMs})
  n.start({firstSyncDone: () => state.synced, pods: () => state.pods, healthy: () => state.healthy})
  return {sent, clock, state, n}
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
})
