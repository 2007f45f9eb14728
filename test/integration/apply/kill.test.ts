// killContainer and pod stops: the kubelet's grace period rules, the preStop hook run before
// StopContainer within the grace period, and what is left of it given to StopContainer.
import * as http from 'node:http'
import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {namedPod} from '../../support/pods.js'
import type {Container, Pod} from '../../../src/api/types.js'
import type {ExecSyncResult} from '../../../src/cri/api.js'
import type {RuntimeContainer, RuntimePod} from '../../../src/kuberuntime/model.js'
import {baseGracePeriodSeconds, killContainer, stopPodSandboxes, type KillDeps} from '../../../src/apply/kill.js'
import {PRESTOP_HANDLER_ANNOTATION, CONTAINER_PORTS_ANNOTATION} from '../../../src/kuberuntime/labels.js'
import {silentLogger} from '../../../src/util/logger.js'
import {CriError} from '../../../src/util/errors.js'
import {FakeRuntime} from '../../support/fake-runtime.js'
import {FakeClock} from '../../support/fake-clock.js'
import {close, listen} from '../prober/listen.js'

function pod(grace: number | undefined, container: Partial<Container> = {}): Pod {
  const mutate = (p: Pod): void => {
    if (grace !== undefined && p.spec) p.spec.terminationGracePeriodSeconds = grace
  }
  return namedPod('web', [{name: 'main', image: 'busybox', ...container}], {uid: 'uid-1', mutate}).pod
}

function observed(extra: Partial<RuntimeContainer> = {}): RuntimeContainer {
  return {
    id: 'c1', sandboxId: 's1', name: 'main', type: 'regular', state: 'running', restartCount: 0, hash: 'h',
    createdAt: 1, startedAt: 1, finishedAt: 0, exitCode: 0, reason: '', message: '', image: 'busybox', imageRef: 'sha', logPath: '',
    ...extra,
  }
}

describe('baseGracePeriodSeconds', () => {
  const probeGrace = {livenessProbe: {exec: {command: ['x']}, terminationGracePeriodSeconds: 3}, startupProbe: {exec: {command: ['x']}, terminationGracePeriodSeconds: 4}}
  it.each([
    ['the pod spec value', pod(45), undefined, {}, 45],
    ['0 from the pod spec (the floor comes later)', pod(0), undefined, {}, 0],
    ['the runtime annotation when the pod is gone', undefined, observed({terminationGracePeriodSeconds: 12}), {}, 12],
    ['30 when nothing says', undefined, undefined, {}, 30],
    ['the override over everything', pod(45), undefined, {gracePeriodOverride: 1}, 1],
    ['the liveness probe value on a liveness kill', pod(45, probeGrace), undefined, {reason: 'container "main" failed its liveness probe'}, 3],
    ['the startup probe value on a startup kill', pod(45, probeGrace), undefined, {reason: 'container "main" failed its startup probe'}, 4],
    ['the pod value on a liveness kill when the probe sets none', pod(45, {livenessProbe: {exec: {command: ['x']}}}), undefined, {reason: 'container "main" failed its liveness probe'}, 45],
    ['the pod value on any other kill', pod(45, probeGrace), undefined, {reason: "container \"main\"'s spec changed"}, 45],
    ['the override over a probe value', pod(45, probeGrace), undefined, {gracePeriodOverride: 7, reason: 'container "main" failed its liveness probe'}, 7],
  ] as const)('%s', (_name, p, rc, opts, want) => {
    const spec = p?.spec?.containers[0]
    expect(baseGracePeriodSeconds(p, spec, rc, opts)).toBe(want)
  })
})

describe('killContainer', () => {
  let fake: FakeRuntime
  let clock: FakeClock
  let warnings: {msg: string; err: unknown}[]
  let deps: KillDeps
  let id: string

  /** ExecSync that "takes" `ms` on the clock and exits with `exitCode`. */
  function execTaking(ms: number, exitCode = 0): void {
    Object.assign(fake, {
      execSync: async (cid: string, cmd: string[], timeoutSeconds: number): Promise<ExecSyncResult> => {
        fake.calls.push({call: 'ExecSync', args: [cid, cmd, timeoutSeconds]})
        clock.advance(ms)
        return {stdout: Buffer.from(exitCode ? 'nope' : ''), stderr: Buffer.alloc(0), exitCode}
      },
    })
  }

  beforeEach(async () => {
    fake = new FakeRuntime({images: ['busybox']})
    clock = new FakeClock(fake)
    warnings = []
    deps = {runtime: fake, logger: {...silentLogger, warn: (msg, f) => warnings.push({msg, err: f?.['err']})}, clock}
    const sb = await fake.runPodSandbox({metadata: {name: 'web', namespace: 'default', uid: 'uid-1', attempt: 0}, labels: {}, annotations: {}} as never)
    id = await fake.createContainer(sb, {metadata: {name: 'main', attempt: 0}, image: {image: 'busybox'}, labels: {}, annotations: {}, mounts: [], logPath: 'main/0.log'} as never, {} as never)
    await fake.startContainer(id)
    fake.calls.length = 0
  })

  const target = (extra: Partial<RuntimeContainer> = {}): {containerId: string; name: string; observed: RuntimeContainer; podIP: string} => ({
    containerId: id, name: 'main', observed: observed({id, ...extra}), podIP: '127.0.0.1',
  })

  it('without a preStop hook stops with the whole grace period', async () => {
    await killContainer(deps, target(), pod(30))
    expect(fake.callNames()).toEqual(['StopContainer'])
    expect(fake.callsOf('StopContainer')[0]!.args).toEqual([id, 30])
  })

  describe('a stop the runtime answers with an error', () => {
    const closed = new CriError('StopContainer', 'Unknown', 'failed to kill container: ttrpc: closed: unknown')
    /** StopContainer fails for the first `failures` calls; `exits` says whether the container has exited by each failure. */
    function stopFailing(failures: number, exits: boolean): void {
      const stop = fake.stopContainer.bind(fake)
      let calls = 0
      Object.assign(fake, {
        stopContainer: async (cid: string, grace: number): Promise<void> => {
          if (++calls > failures) return stop(cid, grace)
          fake.calls.push({call: 'StopContainer', args: [cid, grace]})
          if (exits) fake.exitContainer(cid, 0)
          throw closed
        },
      })
    }

    it('is done when the container exited as it was signalled (its shim gone with it)', async () => {
      stopFailing(1, true)
      await killContainer(deps, target(), pod(30))
      expect(fake.callNames()).toEqual(['StopContainer', 'ContainerStatus'])
    })

    it('is asked once more while the container still runs', async () => {
      stopFailing(1, false)
      await killContainer(deps, target(), pod(30))
      expect(fake.callNames()).toEqual(['StopContainer', 'ContainerStatus', 'StopContainer'])
      expect((await fake.containerStatus(id)).state).toBe('CONTAINER_EXITED')
    })

    it('fails the kill when the second stop fails too and the container still runs', async () => {
      stopFailing(2, false)
      await expect(killContainer(deps, target(), pod(30))).rejects.toBe(closed)
    })
  })

  it('runs the preStop hook first and gives StopContainer the grace period minus what the hook took', async () => {
    execTaking(7_400)
    await killContainer(deps, target(), pod(30, {lifecycle: {preStop: {exec: {command: ['drain']}}}}))
    expect(fake.callNames()).toEqual(['ExecSync', 'StopContainer'])
    // The hook may use the whole grace period; whole seconds are taken off (7.4s → 7).
    expect(fake.callsOf('ExecSync')[0]!.args).toEqual([id, ['drain'], 30])
    expect(fake.callsOf('StopContainer')[0]!.args).toEqual([id, 23])
  })

  it('reports Killing, and ExceededGracePeriod when the runtime takes far longer than the grace period', async () => {
    const events: string[] = []
    const sink = {emit: (_o: unknown, type: string, reason: string) => events.push(`${type} ${reason}`)}
    Object.assign(fake, {
      stopContainer: async (): Promise<void> => {
        clock.advance(40_000)
      },
    })
    await killContainer({...deps, events: sink}, target(), pod(30))
    expect(events).toEqual(['Normal Killing', 'Warning ExceededGracePeriod'])
  })

  it.each([
    ['a liveness kill that restarts', {reason: 'container "main" failed its liveness probe', restarted: true}, 'Container main failed liveness probe, will be restarted'],
    ['a startup kill under Never', {reason: 'container "main" failed its startup probe', restarted: false}, 'Container main failed startup probe'],
    ['an edit', {reason: 'container "main"\'s spec changed: image busybox → busybox:2', restarted: true}, 'Container main definition changed, will be restarted'],
    ['a stop with no reason (the pod goes)', {}, 'Stopping container main'],
  ] as const)('says why in its Killing event: %s', async (_name, opts, want) => {
    const messages: string[] = []
    const sink = {emit: (_o: unknown, _type: string, reason: string, message: string) => void (reason === 'Killing' && messages.push(message))}
    await killContainer({...deps, events: sink}, target(), pod(30), opts)
    expect(messages).toEqual([want])
  })

  it('never gives StopContainer less than 2 seconds', async () => {
    execTaking(10_000)
    await killContainer(deps, target(), pod(10, {lifecycle: {preStop: {exec: {command: ['drain']}}}}))
    expect(fake.callsOf('StopContainer')[0]!.args).toEqual([id, 2])
  })

  it('a sleep preStop hook waits on the clock', async () => {
    await killContainer(deps, target(), pod(30, {lifecycle: {preStop: {sleep: {seconds: 5}}}}))
    expect(fake.callsOf('StopContainer')[0]!.args).toEqual([id, 25])
  })

  it('a failing preStop hook is logged as FailedPreStopHook and the stop goes on', async () => {
    execTaking(1_000, 1)
    await killContainer(deps, target(), pod(30, {lifecycle: {preStop: {exec: {command: ['drain']}}}}))
    expect(fake.callNames()).toEqual(['ExecSync', 'StopContainer'])
    expect(fake.callsOf('StopContainer')[0]!.args).toEqual([id, 29])
    expect(warnings.map((w) => w.msg)).toEqual(['FailedPreStopHook'])
    expect(String(warnings[0]!.err)).toContain('message: "nope"')
  })

  it('a grace period of 0 skips the preStop hook and still gives 2 seconds', async () => {
    execTaking(0)
    await killContainer(deps, target(), pod(30, {lifecycle: {preStop: {exec: {command: ['drain']}}}}), {gracePeriodOverride: 0})
    expect(fake.callNames()).toEqual(['StopContainer'])
    expect(fake.callsOf('StopContainer')[0]!.args).toEqual([id, 2])
  })

  it('a container that never ran gets no preStop hook', async () => {
    execTaking(0)
    await killContainer(deps, target({state: 'created'}), pod(30, {lifecycle: {preStop: {exec: {command: ['drain']}}}}))
    expect(fake.callNames()).toEqual(['StopContainer'])
  })

  it('a probe kill uses the probe grace period for the hook and the stop', async () => {
    execTaking(1_000)
    const p = pod(30, {lifecycle: {preStop: {exec: {command: ['drain']}}}, livenessProbe: {exec: {command: ['x']}, terminationGracePeriodSeconds: 5}})
    await killContainer(deps, target(), p, {reason: 'container "main" failed its liveness probe'})
    expect(fake.callsOf('ExecSync')[0]!.args[2]).toBe(5)
    expect(fake.callsOf('StopContainer')[0]!.args).toEqual([id, 4])
  })

  it('for a pod no longer desired, takes the preStop hook from the container annotation', async () => {
    execTaking(3_000)
    const c = fake.containers.get(id)!
    c.status = {...c.status, annotations: {[PRESTOP_HANDLER_ANNOTATION]: JSON.stringify({exec: {command: ['from-annotation']}})}}
    await killContainer(deps, target({terminationGracePeriodSeconds: 10}), undefined)
    expect(fake.callNames()).toEqual(['ContainerStatus', 'ExecSync', 'StopContainer'])
    expect(fake.callsOf('ExecSync')[0]!.args[1]).toEqual(['from-annotation'])
    expect(fake.callsOf('StopContainer')[0]!.args).toEqual([id, 7])
  })

  it('a container already gone is stopped without error', async () => {
    await fake.removeContainer(id)
    await expect(killContainer(deps, target(), pod(30))).resolves.toBeUndefined()
  })

  describe('httpGet preStop', () => {
    let server: http.Server
    let port: number
    const hits: string[] = []
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        hits.push(req.url ?? '')
        res.end('ok')
      })
      port = await listen(server)
    })
    afterAll(() => close(server))

    it('is sent to the pod IP, a named port resolved from the annotation when the pod is gone', async () => {
      const c = fake.containers.get(id)!
      c.status = {
        ...c.status,
        annotations: {
          [PRESTOP_HANDLER_ANNOTATION]: JSON.stringify({httpGet: {port: 'web', path: '/shutdown'}}),
          [CONTAINER_PORTS_ANNOTATION]: JSON.stringify([{name: 'web', containerPort: port}]),
        },
      }
      await killContainer(deps, target(), undefined)
      expect(hits).toEqual(['/shutdown'])
      expect(warnings).toEqual([])
      expect(fake.callNames()).toEqual(['ContainerStatus', 'StopContainer'])
    })
  })
})

describe('stopPodSandboxes', () => {
  it('runs each running container’s preStop before its stop, then stops the sandboxes', async () => {
    const fake = new FakeRuntime()
    const calls: string[] = []
    Object.assign(fake, {
      execSync: async (cid: string): Promise<ExecSyncResult> => {
        calls.push(`ExecSync ${cid}`)
        return {stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: 0}
      },
      stopContainer: async (cid: string, t: number): Promise<void> => {
        calls.push(`StopContainer ${cid} ${t}`)
      },
      stopPodSandbox: async (sid: string): Promise<void> => {
        calls.push(`StopPodSandbox ${sid}`)
      },
    })
    const p: Pod = {
      metadata: {name: 'web-node1', namespace: 'default', uid: 'uid-1'},
      spec: {
        terminationGracePeriodSeconds: 15,
        containers: [
          {name: 'a', image: 'busybox', lifecycle: {preStop: {exec: {command: ['x']}}}},
          {name: 'b', image: 'busybox'},
        ],
      },
    }
    const rp: RuntimePod = {
      uid: 'uid-1', name: 'web-node1', namespace: 'default', manifestName: 'web',
      sandboxes: [{id: 's1', state: 'ready', attempt: 0, createdAt: 1, ip: '10.0.0.2', labels: {}, annotations: {}}],
      containers: [
        observed({id: 'ca', name: 'a'}),
        observed({id: 'cb', name: 'b'}),
        observed({id: 'old', name: 'a', state: 'exited'}),
      ],
    }
    await stopPodSandboxes({runtime: fake, logger: silentLogger, clock: new FakeClock()}, p, rp, {remove: false})
    expect(calls.indexOf('ExecSync ca')).toBeLessThan(calls.indexOf('StopContainer ca 15'))
    expect(calls).toContain('StopContainer cb 15')
    expect(calls).not.toContain('StopContainer old 15')
    expect(calls.at(-1)).toBe('StopPodSandbox s1')
  })

  it('stops the main containers first, then the sidecars one by one in reverse order, within the same grace period', async () => {
    const fake = new FakeRuntime()
    const clock = new FakeClock()
    const calls: string[] = []
    Object.assign(fake, {
      containerStatus: async (id: string) => ({id, annotations: {}}),
      stopContainer: async (cid: string, grace: number): Promise<void> => {
        calls.push(`StopContainer ${cid} ${grace}`)
        // The main container takes 7 s to stop; the sidecars stop at once.
        if (cid === 'main') clock.advance(7_000)
      },
      stopPodSandbox: async (): Promise<void> => {},
    })
    const p = namedPod('web', [{name: 'app', image: 'busybox'}], {
      mutate: (x) => {
        x.spec.terminationGracePeriodSeconds = 30
        x.spec.initContainers = [
          {name: 'proxy', image: 'busybox', restartPolicy: 'Always'},
          {name: 'log', image: 'busybox', restartPolicy: 'Always'},
        ]
      },
    }).pod
    const rp: RuntimePod = {
      uid: 'uid-web', name: 'web-node1', namespace: 'default', manifestName: 'web',
      sandboxes: [{id: 's1', state: 'ready', attempt: 0, createdAt: 1, ip: '10.0.0.1', labels: {}, annotations: {}}],
      containers: [
        observed({id: 'proxy', name: 'proxy', type: 'sidecar'}),
        observed({id: 'main', name: 'app'}),
        observed({id: 'log', name: 'log', type: 'sidecar'}),
      ],
    }
    await stopPodSandboxes({runtime: fake, logger: silentLogger, clock}, p, rp, {remove: false})
    expect(calls).toEqual(['StopContainer main 30', 'StopContainer log 23', 'StopContainer proxy 23'])
  })
})

describe('stopPodSandboxes removing: a container the runtime is still starting', () => {
  // containerd's answer while a StartContainer goes on after its caller (a `run`) was killed.
  const STARTING = 'failed to remove container "c1": failed to set removing state for container "c1": container is in starting state, can\'t be removed'

  async function setup(): Promise<{fake: FakeRuntime; clock: FakeClock; rp: RuntimePod; stop: () => Promise<void>}> {
    const fake = new FakeRuntime()
    const clock = new FakeClock()
    const id = await fake.runPodSandbox({metadata: {name: 'web-node1', namespace: 'default', uid: 'uid-1', attempt: 0}, hostname: 'web', logDirectory: '', portMappings: [], labels: {}, annotations: {}})
    const rp: RuntimePod = {
      uid: 'uid-1', name: 'web-node1', namespace: 'default', manifestName: 'web',
      sandboxes: [{id, state: 'ready', attempt: 0, createdAt: 1, ip: '', labels: {}, annotations: {}}],
      containers: [],
    }
    return {fake, clock, rp, stop: () => stopPodSandboxes({runtime: fake, logger: silentLogger, clock}, undefined, rp, {remove: true})}
  }

  it('waits the start out: the removal is tried again 500 ms apart until the runtime takes it', async () => {
    const {fake, clock, rp, stop} = await setup()
    fake.failNext('RemovePodSandbox', 'Unknown', STARTING, 3)
    const start = clock.now()
    await stop()
    expect(fake.callsOf('RemovePodSandbox')).toHaveLength(4)
    expect(clock.now() - start).toBe(1500)
    expect(await fake.listPodSandbox()).toEqual([])
    expect(rp.sandboxes).toHaveLength(1)
  })

  it('fails at once on any other error', async () => {
    const {fake, stop} = await setup()
    fake.failNext('RemovePodSandbox', 'Unknown', 'failed to remove container "c1": cannot delete running task c1: failed precondition')
    await expect(stop()).rejects.toThrow(/cannot delete running task/)
    expect(fake.callsOf('RemovePodSandbox')).toHaveLength(1)
  })

  it('gives up after 20 tries (10 s) with the runtime\'s own words', async () => {
    const {fake, clock, stop} = await setup()
    fake.failNext('RemovePodSandbox', 'Unknown', STARTING, 1000)
    const start = clock.now()
    await expect(stop()).rejects.toThrow(/container is in starting state/)
    expect(fake.callsOf('RemovePodSandbox')).toHaveLength(20)
    expect(clock.now() - start).toBe(9500)
  })
})

describe('stopPodSandboxes with sidecars: the timing of hooks and stops', () => {
  it('starts every preStop hook at once, sidecars\' too; then stops the main containers, then the sidecars in reverse order', async () => {
    const fake = new FakeRuntime()
    const clock = new FakeClock(undefined, 0)
    const calls: string[] = []
    const at = (text: string): void => void calls.push(`t=${Math.round(clock.now() / 1000)} ${text}`)
    const takes = (ms: number): Promise<void> => new Promise((resolve) => void clock.after(ms, resolve))
    // The app's hook takes 3 s, the proxy's 5 s; the app takes 4 s to stop, a sidecar 1 s.
    const hookMs: Record<string, number> = {app: 3_000, proxy: 5_000}
    const stopMs: Record<string, number> = {app: 4_000, proxy: 1_000, log: 1_000}
    Object.assign(fake, {
      containerStatus: async (id: string) => ({id, annotations: {}}),
      execSync: async (cid: string): Promise<ExecSyncResult> => {
        at(`preStop ${cid} starts`)
        await takes(hookMs[cid] ?? 0)
        return {stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: 0}
      },
      stopContainer: async (cid: string, grace: number): Promise<void> => {
        at(`StopContainer ${cid} ${grace}`)
        await takes(stopMs[cid] ?? 0)
      },
      stopPodSandbox: async (): Promise<void> => at('StopPodSandbox'),
    })
    const hook = {preStop: {exec: {command: ['drain']}}}
    const p = namedPod('web', [{name: 'app', image: 'busybox', lifecycle: hook}], {
      mutate: (x) => {
        x.spec.terminationGracePeriodSeconds = 30
        x.spec.initContainers = [
          {name: 'proxy', image: 'busybox', restartPolicy: 'Always', lifecycle: hook},
          {name: 'log', image: 'busybox', restartPolicy: 'Always'},
        ]
      },
    }).pod
    const rp: RuntimePod = {
      uid: 'uid-web', name: 'web-node1', namespace: 'default', manifestName: 'web',
      sandboxes: [{id: 's1', state: 'ready', attempt: 0, createdAt: 1, ip: '10.0.0.1', labels: {}, annotations: {}}],
      containers: [
        observed({id: 'proxy', name: 'proxy', type: 'sidecar'}),
        observed({id: 'app', name: 'app'}),
        observed({id: 'log', name: 'log', type: 'sidecar'}),
      ],
    }
    let finished = false
    const stopping = stopPodSandboxes({runtime: fake, logger: silentLogger, clock}, p, rp, {remove: false}).then(() => void (finished = true))
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r))
    }
    for (let s = 0; s < 40 && !finished; s++) {
      await settle()
      clock.advance(1_000)
    }
    await stopping
    expect(calls).toEqual([
      // Both hooks start at the start of termination.
      't=0 preStop proxy starts',
      't=0 preStop app starts',
      // The app stops when its hook is done, with what is left of its grace period.
      't=3 StopContainer app 27',
      // The last sidecar goes once the app has stopped; the proxy, whose hook ended at 5 s, after it.
      't=7 StopContainer log 23',
      't=8 StopContainer proxy 22',
      't=9 StopPodSandbox',
    ])
  })
})
