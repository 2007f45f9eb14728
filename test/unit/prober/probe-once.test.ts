// `get` without the daemon: readiness and startup are probed once, now.
import {describe, expect, it} from 'vitest'
import {probeOnce} from '../../../src/prober/probe-once.js'
import {FakeRuntime} from '../../support/fake-runtime.js'
import type {StaticPod} from '../../../src/api/types.js'
import type {RuntimePod} from '../../../src/kuberuntime/model.js'

const sp: StaticPod = {
  manifestName: 'web',
  source: {kind: 'file', location: 'web.yaml', document: 0},
  pod: {
    metadata: {name: 'web-n', namespace: 'default', uid: 'u'},
    spec: {
      containers: [
        {name: 'ready', image: 'i', readinessProbe: {exec: {command: ['true']}}},
        {name: 'plain', image: 'i'},
        {name: 'stopped', image: 'i', readinessProbe: {exec: {command: ['true']}}},
      ],
    },
  },
}

function observed(): RuntimePod {
  const c = (id: string, name: string, state: 'running' | 'exited') => ({id, sandboxId: 's', name, type: 'regular' as const, state, restartCount: 0, hash: '', createdAt: 0, startedAt: 0, finishedAt: 0, exitCode: 0, reason: '', message: '', image: 'i', imageRef: '', logPath: ''})
  return {uid: 'u', name: 'web-n', namespace: 'default', manifestName: 'web', sandboxes: [{id: 's', state: 'ready', attempt: 0, createdAt: 0, ip: '10.0.0.2', labels: {}, annotations: {}}], containers: [c('c1', 'ready', 'running'), c('c2', 'plain', 'running'), c('c3', 'stopped', 'exited')]}
}

describe('probeOnce', () => {
  it('runs the readiness probe of running containers only', async () => {
    const fake = new FakeRuntime()
    const ran: string[] = []
    Object.assign(fake, {execSync: async (id: string) => (ran.push(id), {stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: 0})})
    const results = await probeOnce(fake, sp, observed(), '')
    expect(Object.fromEntries(results)).toEqual({ready: {readiness: 'Success'}, plain: {}})
    expect(ran).toEqual(['c1'])
  })

  it('reports a failing probe as Failure', async () => {
    const fake = new FakeRuntime()
    Object.assign(fake, {execSync: async () => ({stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: 1})})
    const results = await probeOnce(fake, sp, observed(), '')
    expect(results.get('ready')).toEqual({readiness: 'Failure'})
  })
})
