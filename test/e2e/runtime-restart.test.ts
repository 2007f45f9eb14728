// containerd killed and restarted during `run` and `watch`: kube-node must keep going and converge
// once the runtime is back, leaving one ready sandbox per pod and no leak. Killing the one runtime
// of the test run, this file runs alone, after every other end-to-end and adversarial file
// (vitest.e2e.config.ts, scripts/test.sh). Runs as node `runtime-restart`.
import {describe, expect, it} from 'vitest'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {eventually} from './support.js'
import {dirs, faultHooks, freePort, healthz, killContainerd, leaks, names, orphanShims, ourSandboxCount, podYaml, quick, readySandboxesOf, runningContainer, sleep, start, startContainerd, writePods} from './faults-support.js'

describe('containerd killed and restarted', () => {
  const hooks = faultHooks({restartRuntime: true})

  it('run survives containerd killed and restarted mid-converge: exit 0, one ready sandbox per pod, no leak', async () => {
    const dir = join(dirs.work, 'restart-run')
    const pods = names('r', 10)
    writePods(dir, pods)
    const run = start(['run', '-f', dir, '--timeout', '2m'])
    await eventually(() => (ourSandboxCount() > 0 ? true : undefined), 60_000, 'a first sandbox')
    await killContainerd()
    await sleep(3000)
    await startContainerd()
    const r = await run.result
    expect(r.code, r.stderr).toBe(0)
    // The outage was seen and retried, not ignored.
    expect(r.stderr).toMatch(/Unavailable|retrying/)
    for (const p of pods) expect(readySandboxesOf(p), p).toHaveLength(1)
    expect(await leaks(pods)).toEqual([])
  })

  it('watch survives containerd killed and restarted: keeps its pods, converges a new one, health recovers', async () => {
    const dir = join(dirs.work, 'restart-watch')
    writePods(dir, ['w0', 'w1', 'w2'])
    const port = await freePort()
    const daemon = hooks.daemon(['watch', dir, ...quick, '--healthz-port', String(port)])
    const before = await eventually(async () => {
      const ids = await Promise.all(['w0', 'w1', 'w2'].map(runningContainer))
      return ids.every(Boolean) ? ids : undefined
    }, 60_000, 'w0..w2 running')
    expect(await healthz(port)).toBe(200)

    await killContainerd()
    await sleep(3000)
    expect(daemon.child.exitCode, 'watch is still running').toBeNull()
    await startContainerd()
    writeFileSync(join(dir, 'w3.yaml'), podYaml('w3'))
    await eventually(() => runningContainer('w3'), 60_000, 'w3 running after the restart')
    await eventually(async () => ((await healthz(port)) === 200 ? true : undefined), 30_000, 'healthz 200')
    // The old pods were adopted, not recreated: same containers, one ready sandbox each.
    expect(await Promise.all(['w0', 'w1', 'w2'].map(runningContainer))).toEqual(before)
    for (const p of ['w0', 'w1', 'w2', 'w3']) expect(readySandboxesOf(p), p).toHaveLength(1)
    expect(daemon.child.exitCode).toBeNull()
    expect(await leaks(['w0', 'w1', 'w2', 'w3'])).toEqual([])
  })

  it('the runtime set-up stops the shims the restarts left running for no container (containerd#6771)', async () => {
    // The next `runtime.sh up` (the next test file's, the next CI run's) is where they go.
    await startContainerd()
    expect(orphanShims()).toEqual([])
  })
})
