// Killing events in the kubelet's words: what a person or an alert sees when a container is
// killed, from the reason the plan gives the kill.
import {describe, expect, it} from 'vitest'
import type {StaticPod} from '../../../src/api/types.js'
import type {ContainerProbeResults} from '../../../src/pod/probe-results.js'
import type {RuntimePod} from '../../../src/kuberuntime/model.js'
import {computePodActions} from '../../../src/decide/compute-pod-actions.js'
import {killingMessage} from '../../../src/apply/kill.js'
import {NOW, PRESENT, basePod, baseRuntime, setContainer, withLiveFacts} from '../../support/pods.js'

describe('killingMessage', () => {
  it.each([
    ['liveness, restarted', 'container "web" failed its liveness probe', true, 'Container web failed liveness probe, will be restarted'],
    ['liveness under Never', 'container "web" failed its liveness probe', false, 'Container web failed liveness probe'],
    ['startup, restarted', 'container "web" failed its startup probe', true, 'Container web failed startup probe, will be restarted'],
    ['definition changed (image)', 'container "web"\'s spec changed: image nginx:1 → nginx:2', true, 'Container web definition changed, will be restarted'],
    ['definition changed (hash)', 'container "web"\'s spec changed: hash 1a → 2b', true, 'Container web definition changed, will be restarted'],
    ['sidecar liveness (no suffix for init containers)', 'sidecar "web" failed its liveness probe', true, 'Init container web failed liveness probe'],
    ['sidecar startup', 'sidecar "web" failed its startup probe', true, 'Init container web failed startup probe'],
    ['sidecar definition changed', 'sidecar "web"\'s spec changed (hash 1a → 2b)', true, 'Init container web definition changed'],
    ['unknown regular container', 'container "web" is in an unknown state', true, 'Container is in "unknown" state, try killing it before restart'],
    ['unknown init container', 'init container "web" is in an unknown state', true, 'Init container is in "unknown" state, try killing it before restart'],
    ['postStart hook failure', 'FailedPostStartHook', false, 'FailedPostStartHook'],
    ['created but never started', 'container "web" was created but never started', true, 'Stopping container web'],
    ['pod termination (no reason)', undefined, false, 'Stopping container web'],
  ] as const)('%s', (_name, reason, restarted, want) => {
    expect(killingMessage('web', reason, restarted)).toBe(want)
  })
})

// The reasons the decision really writes, so a change of its wording cannot silently turn every
// message back into "Stopping container".
describe('killingMessage of real plans', () => {
  function killMessage(probes: Record<string, ContainerProbeResults>, change?: (sp: StaticPod) => void, rt?: (r: RuntimePod) => void): string {
    const built = basePod()
    const runtime = baseRuntime(built)
    rt?.(runtime)
    const sp = withLiveFacts(structuredClone(built))
    change?.(sp)
    const plan = computePodActions({sp, runtime, images: new Set([...PRESENT, 'docker.io/library/busybox:9']), probes: new Map(Object.entries(probes)), backOff: new Map(), now: NOW})
    const kill = plan.actions.find((a) => a.type === 'KillContainer')
    if (kill?.type !== 'KillContainer') throw new Error('no kill in the plan')
    const restarted = plan.actions.some((a) => a.type === 'StartContainer' && a.name === kill.name)
    return killingMessage(kill.name, kill.reason, restarted)
  }
  it.each([
    ['liveness failure', () => killMessage({foo2: {liveness: 'Failure'}}), 'Container foo2 failed liveness probe, will be restarted'],
    ['liveness failure under Never', () => killMessage({foo2: {liveness: 'Failure'}}, (sp) => void (sp.pod.spec.restartPolicy = 'Never')), 'Container foo2 failed liveness probe'],
    ['startup failure', () => killMessage({foo2: {startup: 'Failure'}}), 'Container foo2 failed startup probe, will be restarted'],
    ['image edit', () => killMessage({}, (sp) => void (sp.pod.spec.containers[1]!.image = 'busybox:9')), 'Container foo2 definition changed, will be restarted'],
    ['unknown state', () => killMessage({}, undefined, (rt) => setContainer(rt, 'foo2', {state: 'unknown'})), 'Container is in "unknown" state, try killing it before restart'],
  ] as const)('%s', (_name, message, want) => {
    expect(message()).toBe(want)
  })
})
