// Reads kube-node's pods back from the runtime: one ListPodSandbox and one ListContainers call
// (filtered by kube-node's label), plus the status calls that only the runtime can answer
// (exit codes and times of containers, IPs of ready sandboxes).
import type {ContainerStatus} from '../cri/api.js'
import type {RuntimeService} from '../cri/port.js'
import type {RuntimePod} from './model.js'
import {managedSelector, POD_UID_LABEL} from './labels.js'
import {buildRuntimePods} from './runtime-status.js'
import {withTerminationMessages} from './termination-message.js'
import {ignoreNotFound} from '../cri/errors.js'

export interface ReadOptions {
  /** Only this pod. */
  uid?: string
  /** Only this node's pods. */
  nodeName?: string
}

export async function readRuntimePods(runtime: RuntimeService, opts: ReadOptions = {}): Promise<RuntimePod[]> {
  const labelSelector: Record<string, string> = managedSelector(opts.nodeName)
  if (opts.uid) labelSelector[POD_UID_LABEL] = opts.uid
  const [sandboxes, containers] = await Promise.all([
    runtime.listPodSandbox({labelSelector}),
    runtime.listContainers({labelSelector}),
  ])
  const statuses = new Map<string, ContainerStatus>()
  const sandboxIps = new Map<string, string>()
  await Promise.all([
    ...containers.map(async (c) => {
      const s = await ignoreNotFound(runtime.containerStatus(c.id))
      if (s) statuses.set(c.id, s)
    }),
    ...sandboxes
      .filter((s) => s.state === 'SANDBOX_READY')
      .map(async (s) => {
        const st = await ignoreNotFound(runtime.podSandboxStatus(s.id))
        if (st?.network?.ip) sandboxIps.set(s.id, st.network.ip)
      }),
  ])
  // Exited containers carry their termination message (read from the file they wrote).
  const pods = buildRuntimePods({sandboxes, containers, statuses, sandboxIps})
  return Promise.all(pods.map((p) => withTerminationMessages(p, statuses)))
}

export async function readRuntimePod(runtime: RuntimeService, uid: string): Promise<RuntimePod | undefined> {
  return (await readRuntimePods(runtime, {uid})).find((p) => p.uid === uid)
}

