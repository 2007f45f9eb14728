// One probe run: the API defaults for a probe's timings, and dispatch to its handler.
import type {Container, Probe} from '../api/types.js'
import type {RuntimeService} from '../cri/port.js'
import {expandAll} from '../kuberuntime/env.js'
import {runExec, runGrpc, runHttpGet, runTcp, type HandlerOutcome, type HandlerTarget} from './handlers.js'

export type ProbeType = 'liveness' | 'readiness' | 'startup'

export interface ProbeTimings {
  initialDelaySeconds: number
  periodSeconds: number
  timeoutSeconds: number
  successThreshold: number
  failureThreshold: number
}

/** API defaults; liveness and startup probes always need one success (validation enforces it too). */
export function probeTimings(probe: Probe, type: ProbeType): ProbeTimings {
  return {
    initialDelaySeconds: probe.initialDelaySeconds ?? 0,
    periodSeconds: Math.max(1, probe.periodSeconds ?? 10),
    timeoutSeconds: Math.max(1, probe.timeoutSeconds ?? 1),
    successThreshold: type === 'readiness' ? Math.max(1, probe.successThreshold ?? 1) : 1,
    failureThreshold: Math.max(1, probe.failureThreshold ?? 3),
  }
}

export async function runProbe(probe: Probe, target: HandlerTarget, runtime: RuntimeService): Promise<HandlerOutcome> {
  const timeoutMs = Math.max(1, probe.timeoutSeconds ?? 1) * 1000
  if (probe.exec !== undefined) return runExec(runtime, target.containerId, probe.exec.command ?? [], timeoutMs)
  if (probe.httpGet !== undefined) return runHttpGet(probe.httpGet, target, timeoutMs)
  if (probe.tcpSocket !== undefined) return runTcp(probe.tcpSocket, target, timeoutMs)
  if (probe.grpc !== undefined) return runGrpc(probe.grpc, target, timeoutMs)
  return {result: 'Error', output: 'the probe has no handler'}
}

/**
 * As the kubelet (ExpandContainerCommandOnlyStatic): `$(VAR)` in an exec probe's command takes the
 * container's literal env values; a variable set through valueFrom expands to "".
 */
export function expandExecProbe(probe: Probe, container: Container): Probe {
  if (probe.exec?.command === undefined) return probe
  const vars = new Map<string, string>()
  for (const e of container.env ?? []) vars.set(e.name, e.value ?? '')
  return {...probe, exec: {command: expandAll(probe.exec.command, vars)}}
}
