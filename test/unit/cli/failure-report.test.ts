// The failure report after `run`'s table: what a CI user needs to see why a pod failed, and
// nothing at all on success.
import {describe, expect, it} from 'vitest'
import {renderFailureReport} from '../../../src/cli/render/failure-report.js'
import {renderRunResults} from '../../../src/cli/render/run-results.js'
import type {PodRunResult} from '../../../src/loop/run-once.js'
import type {FailureReport} from '../../../src/services/failure-report.js'
import {makeStaticPod, UID} from '../../support/pods.js'

const REPORT: FailureReport = {
  pod: 'web-node1',
  outcome: 'failed',
  reason: 'container "app" CrashLoopBackOff',
  phase: 'Running',
  containers: [
    {
      name: 'app',
      state: 'waiting: CrashLoopBackOff',
      exitCode: 1,
      restartCount: 3,
      terminationMessage: 'config file missing\n',
      logTail: ['starting', 'fatal: \u001b[31mno config'],
      previousLogTail: ['starting'],
      lastProbeFailure: 'Readiness probe failed: connection refused',
    },
  ],
  more: ['kube-node describe pod web', 'kube-node logs web -c app --previous'],
}

const result = (outcome: PodRunResult['outcome']): PodRunResult => ({sp: makeStaticPod(), outcome, reason: 'r', status: {phase: 'Running'}})

describe('failure report', () => {
  it('names the state, exit code, restarts, message, probe failure and log lines, escaped', () => {
    expect(renderFailureReport(REPORT)).toBe(
      [
        'web-node1 failed: container "app" CrashLoopBackOff',
        '  phase: Running',
        '  container app: waiting: CrashLoopBackOff',
        '    exit code: 1',
        '    restarts: 3',
        '    termination message: config file missing',
        '    last probe failure: Readiness probe failed: connection refused',
        '    last 2 log lines:',
        '      | starting',
        '      | fatal: \\x1b[31mno config',
        '    last 1 log lines of the attempt before:',
        '      | starting',
        '  more: kube-node describe pod web; kube-node logs web -c app --previous',
        '',
      ].join('\n'),
    )
  })

  it('follows the table for a failed pod, and is absent on success', () => {
    expect(renderRunResults([result('failed')], 'table', false, 0, new Map([[UID, REPORT]]))).toContain('\nweb-node1 failed: container "app" CrashLoopBackOff\n')
    expect(renderRunResults([result('done')], 'table', false, 0, new Map()).split('\n').filter(Boolean)).toHaveLength(2)
  })

  it('rides in an annotation of the pod with -o json', () => {
    const list = JSON.parse(renderRunResults([result('failed')], 'json', false, 0, new Map([[UID, REPORT]]))) as {items: {metadata: {annotations: Record<string, string>}}[]}
    expect(JSON.parse(list.items[0]?.metadata.annotations['kube-node.io/failure-report'] ?? '')).toEqual(REPORT)
  })
})
