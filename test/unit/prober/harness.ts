// A ProbeManager under vitest fake timers, with a scripted probe runner: each probe's exec command
// names it ('live', 'ready', 'start'), and its answers are queued per name (default Success).
import {vi} from 'vitest'
import {namedPod} from '../../support/pods.js'
import type {Container, Probe, StaticPod} from '../../../src/api/types.js'
import type {RuntimeService} from '../../../src/cri/port.js'
import type {RuntimeContainer, RuntimePod} from '../../../src/kuberuntime/model.js'
import type {HandlerOutcome, HandlerTarget} from '../../../src/prober/handlers.js'
import {ProbeManager} from '../../../src/prober/manager.js'
import {realClock} from '../../../src/util/clock.js'
import type {Logger} from '../../../src/util/logger.js'
import type {ProbeMetrics} from '../../../src/prober/metrics.js'

export const T0 = 1_700_000_000_000
export const UID = 'uid-1'
export type Answer = HandlerOutcome['result']

export const probe = (name: string, extra: Partial<Probe> = {}): Probe => ({exec: {command: [name]}, periodSeconds: 1, ...extra})

export function staticPod(containers: Container[]): StaticPod {
  return namedPod('web', containers, {uid: UID, location: '/etc/kubernetes/manifests/web.yaml'})
}

export function runtimeContainer(name: string, id: string, extra: Partial<RuntimeContainer> = {}): RuntimeContainer {
  return {
    id, sandboxId: 'sb1', name, type: 'regular', state: 'running', restartCount: 0, hash: 'h',
    createdAt: T0, startedAt: T0, finishedAt: 0, exitCode: 0, reason: '', message: '',
    image: 'nginx', imageRef: 'sha256:1', logPath: '', ...extra,
  }
}

export function observed(...containers: RuntimeContainer[]): RuntimePod {
  const sandbox = {id: 'sb1', state: 'ready' as const, attempt: 0, createdAt: T0, ip: '10.88.0.5', labels: {}, annotations: {}}
  return {uid: UID, name: 'web-node1', namespace: 'default', manifestName: 'web', sandboxes: [sandbox], containers}
}

export interface Harness {
  manager: ProbeManager
  /** Probe names in the order they were run (each attempt counts). */
  calls: string[]
  targets: HandlerTarget[]
  changes: string[]
  warnings: string[]
  answer(name: string, ...answers: Answer[]): void
  /** Lets `ms` of (fake) time pass, running the timers and the probes they start. */
  advance(ms: number): Promise<void>
  count(name: string): number
}

export function harness(opts: {random?: () => number; age?: number; hostIP?: string; metrics?: ProbeMetrics} = {}): Harness {
  vi.useFakeTimers({now: T0 - (opts.age ?? 0)})
  const calls: string[] = []
  const targets: HandlerTarget[] = []
  const changes: string[] = []
  const warnings: string[] = []
  const queues = new Map<string, Answer[]>()
  const logger: Logger = {info: () => {}, error: () => {}, debug: () => {}, enabled: () => false, warn: (m) => void warnings.push(m)}
  const manager = new ProbeManager({
    runtime: {} as RuntimeService,
    clock: realClock,
    logger,
    onChange: (uid) => void changes.push(uid),
    random: opts.random ?? (() => 0),
    ...(opts.hostIP === undefined ? {} : {hostIP: opts.hostIP}),
    metrics: opts.metrics,
    run: async (p, target) => {
      const name = p.exec?.command?.[0] ?? '?'
      calls.push(name)
      targets.push(target)
      return {result: queues.get(name)?.shift() ?? 'Success', output: `${name} said so`}
    },
  })
  // The manager was created `age` ms before T0.
  if (opts.age) vi.setSystemTime(T0)
  return {
    manager, calls, targets, changes, warnings,
    answer: (name, ...answers) => void queues.set(name, [...(queues.get(name) ?? []), ...answers]),
    advance: (ms) => vi.advanceTimersByTimeAsync(ms).then(() => undefined),
    count: (name) => calls.filter((c) => c === name).length,
  }
}
