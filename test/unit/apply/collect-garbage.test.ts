// GC's effect (shared by run and watch): what the planner picks is removed, containers first, and
// something another process removed already is not an error.
import {beforeEach, describe, expect, it} from 'vitest'
import {removeGarbage} from '../../../src/apply/collect-garbage.js'
import type {RuntimePod} from '../../../src/kuberuntime/model.js'
import {silentLogger} from '../../../src/util/logger.js'
import {FakeRuntime} from '../../support/fake-runtime.js'
import {T0, basePod, baseRuntime, exited, runtimeContainer, sandbox} from '../../support/pods.js'

let fake: FakeRuntime
beforeEach(() => {
  fake = new FakeRuntime()
})

/** foo1 runs in sandbox-3; sandbox-2 and sandbox-1 died, each with a dead foo1. */
function history(): RuntimePod {
  const sp = basePod()
  const rt = baseRuntime(sp)
  rt.sandboxes = [sandbox(sp, {id: 'sandbox-3', createdAt: T0 + 2}), sandbox(sp, {id: 'sandbox-2', state: 'notready', createdAt: T0 + 1}), sandbox(sp, {id: 'sandbox-1', state: 'notready'})]
  rt.containers = [
    runtimeContainer(sp, 'foo1', {id: 'c3', sandboxId: 'sandbox-3', createdAt: T0 + 30}),
    runtimeContainer(sp, 'foo1', {...exited(137), id: 'c2', sandboxId: 'sandbox-2', createdAt: T0 + 20}),
    runtimeContainer(sp, 'foo1', {...exited(137), id: 'c1', sandboxId: 'sandbox-1', createdAt: T0 + 10}),
  ]
  return rt
}

describe('removeGarbage', () => {
  it('removes the older dead container, then stops and removes the sandbox left empty; keeps the history', async () => {
    const garbage = await removeGarbage({runtime: fake, logger: silentLogger}, [history()], new Set(['uid-1']))
    expect(garbage).toEqual({containers: ['c1'], sandboxes: ['sandbox-1']})
    expect(fake.calls.map((c) => `${c.call} ${String(c.args[0])}`)).toEqual(['RemoveContainer c1', 'StopPodSandbox sandbox-1', 'RemovePodSandbox sandbox-1'])
  })

  it('leaves pods not wanted alone', async () => {
    await removeGarbage({runtime: fake, logger: silentLogger}, [history()], new Set())
    expect(fake.calls).toEqual([])
  })

  it('takes what is already gone as removed', async () => {
    // Nothing of history() is in the runtime: another process removed it. The port's stop and
    // remove are idempotent (the gRPC adapter's NotFound case: client.wire.test.ts).
    await expect(removeGarbage({runtime: fake, logger: silentLogger}, [history()], new Set(['uid-1']))).resolves.toEqual({containers: ['c1'], sandboxes: ['sandbox-1']})
  })

  it('fails on any other error, for the caller to retry later', async () => {
    fake.failNext('RemoveContainer', 'Unavailable')
    await expect(removeGarbage({runtime: fake, logger: silentLogger}, [history()], new Set(['uid-1']))).rejects.toThrow()
  })
})
