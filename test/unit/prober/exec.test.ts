import {describe, expect, it, vi} from 'vitest'
import type {ExecSyncResult} from '../../../src/cri/api.js'
import type {RuntimeService} from '../../../src/cri/port.js'
import {runExec} from '../../../src/prober/handlers.js'
import {CriError} from '../../../src/util/errors.js'

/** A runtime that only knows ExecSync, answering with `answer`; records the calls. */
function execRuntime(answer: () => Promise<ExecSyncResult>): {runtime: RuntimeService; calls: unknown[][]} {
  const calls: unknown[][] = []
  const runtime = {
    execSync: (id: string, cmd: string[], timeoutSeconds: number) => {
      calls.push([id, cmd, timeoutSeconds])
      return answer()
    },
  } as Partial<RuntimeService> as RuntimeService
  return {runtime, calls}
}

const result = (exitCode: number, stdout = '', stderr = ''): ExecSyncResult => ({exitCode, stdout: Buffer.from(stdout), stderr: Buffer.from(stderr)})

describe('runExec', () => {
  it('runs the command in the container with the timeout in seconds; exit 0 is success', async () => {
    const {runtime, calls} = execRuntime(async () => result(0, 'ok\n'))
    expect(await runExec(runtime, 'c1', ['cat', '/tmp/healthy'], 2000)).toEqual({result: 'Success', output: 'ok\n'})
    expect(calls).toEqual([['c1', ['cat', '/tmp/healthy'], 2]])
  })

  it('a non-zero exit is a failure with stdout and stderr as output', async () => {
    const {runtime} = execRuntime(async () => result(1, 'out ', 'no such file'))
    expect(await runExec(runtime, 'c1', ['cat', 'x'], 1000)).toEqual({result: 'Failure', output: 'out no such file'})
  })

  it('keeps at most 10 KiB of output', async () => {
    const {runtime} = execRuntime(async () => result(1, 'x'.repeat(20_000)))
    expect((await runExec(runtime, 'c1', ['x'], 1000)).output).toHaveLength(10 * 1024)
  })

  it('a runtime deadline is a failure: the command timed out', async () => {
    const {runtime} = execRuntime(async () => {
      throw new CriError('ExecSync', 'DeadlineExceeded', 'timeout 1s exceeded')
    })
    const out = await runExec(runtime, 'c1', ['sleep', '5'], 1000)
    expect(out.result).toBe('Failure')
    expect(out.output).toContain('timed out')
  })

  it('a runtime that never answers times out too', async () => {
    vi.useFakeTimers()
    const {runtime} = execRuntime(() => new Promise(() => {}))
    const pending = runExec(runtime, 'c1', ['sleep', '5'], 1000)
    await vi.advanceTimersByTimeAsync(2000)
    const out = await pending
    vi.useRealTimers()
    expect(out.result).toBe('Failure')
    expect(out.output).toContain('timed out')
  })

  it('any other runtime error means the probe could not run', async () => {
    const {runtime} = execRuntime(async () => {
      throw new CriError('ExecSync', 'NotFound', 'container c1 not found')
    })
    const out = await runExec(runtime, 'c1', ['true'], 1000)
    expect(out.result).toBe('Error')
    expect(out.output).toContain('not found')
  })
})
