// The status of a pod the eviction manager stopped: its stopped containers as the runtime holds
// them, and phase Failed with the eviction's reason and message for good (the kubelet's evictPod
// status function), whatever the containers' exit codes would have made of the phase. Pure.
import type {PodStatus, StaticPod} from '../api/types.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {generatePodStatus} from './generate.js'

export function evictedStatus(sp: StaticPod, runtime: RuntimePod | undefined, eviction: {reason: string; message: string}, opts: {hostIP?: string | undefined; now: number}): PodStatus {
  const status = generatePodStatus({sp, runtime, probes: new Map(), waiting: new Map(), hostIP: opts.hostIP, now: opts.now})
  return {...status, phase: 'Failed', reason: eviction.reason, message: eviction.message}
}
