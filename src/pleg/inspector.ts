// Reads kube-node's pods from the runtime for the PLEG at the lowest cost: one ListPodSandbox and
// one ListContainers call, plus ContainerStatus only for containers that are new or whose state
// changed, and PodSandboxStatus only for sandboxes not yet seen ready. What those status calls
// learn is kept, since an exited container's status and a sandbox's IP never change.
import type {Container, ContainerStatus, PodSandbox} from '../cri/api.js'
import type {RuntimeService} from '../cri/port.js'
import {managedSelector} from '../kuberuntime/labels.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {buildRuntimePods} from '../kuberuntime/runtime-status.js'
import {ignoreNotFound} from '../cri/errors.js'
import {withTerminationMessages} from '../kuberuntime/termination-message.js'

export class RuntimeInspector {
  private readonly statuses = new Map<string, ContainerStatus>()
  /** Exited containers' messages with their termination message: read once, they never change. */
  private readonly messages = new Map<string, string>()
  /** Sandboxes already asked while ready → their IP ('' when the runtime reported none). */
  private readonly sandboxIps = new Map<string, string>()

  private readonly selector: Record<string, string>

  constructor(
    private readonly runtime: RuntimeService,
    nodeName?: string,
  ) {
    this.selector = managedSelector(nodeName)
  }

  /** Rejects when the runtime cannot be listed; the caches then keep what they knew. */
  async read(): Promise<RuntimePod[]> {
    const [sandboxes, containers] = await Promise.all([
      this.runtime.listPodSandbox({labelSelector: this.selector}),
      this.runtime.listContainers({labelSelector: this.selector}),
    ])
    await Promise.all([
      ...containers.filter((c) => this.needsStatus(c)).map((c) => this.fetchStatus(c.id)),
      ...sandboxes.filter((s) => this.needsIp(s)).map((s) => this.fetchIp(s.id)),
    ])
    this.forgetAllBut(sandboxes, containers)
    const pods = buildRuntimePods({sandboxes, containers, statuses: this.statuses, sandboxIps: this.sandboxIps})
    return Promise.all(pods.map((p) => this.withMessages(p)))
  }

  private async withMessages(pod: RuntimePod): Promise<RuntimePod> {
    const exited = pod.containers.filter((c) => c.state === 'exited')
    if (exited.length === 0) return pod
    if (exited.some((c) => !this.messages.has(c.id))) {
      const read = await withTerminationMessages(pod, this.statuses)
      for (const c of read.containers) if (c.state === 'exited') this.messages.set(c.id, c.message)
    }
    return {...pod, containers: pod.containers.map((c) => (c.state === 'exited' ? {...c, message: this.messages.get(c.id) ?? c.message} : c))}
  }

  /** A ready sandbox's IP learnt elsewhere (its creation); it never changes while the sandbox lives. */
  noteSandboxIp(sandboxId: string, ip: string): void {
    this.sandboxIps.set(sandboxId, ip)
  }

  private needsStatus(c: Container): boolean {
    const known = this.statuses.get(c.id)
    if (!known) return true
    // Exited is final: the listing may lag behind the status we already have, never the reverse.
    if (known.state === 'CONTAINER_EXITED') return false
    return known.state !== c.state
  }

  private needsIp(s: PodSandbox): boolean {
    return s.state === 'SANDBOX_READY' && !this.sandboxIps.has(s.id)
  }

  private async fetchStatus(id: string): Promise<void> {
    const status = await ignoreNotFound(this.runtime.containerStatus(id))
    if (status) this.statuses.set(id, status)
    else this.statuses.delete(id)
  }

  private async fetchIp(id: string): Promise<void> {
    const status = await ignoreNotFound(this.runtime.podSandboxStatus(id))
    if (status) this.sandboxIps.set(id, status.network?.ip ?? '')
  }

  // Ids the runtime no longer lists are gone for good: drop them so the caches stay small.
  private forgetAllBut(sandboxes: PodSandbox[], containers: Container[]): void {
    const liveContainers = new Set(containers.map((c) => c.id))
    for (const id of this.statuses.keys()) if (!liveContainers.has(id)) this.statuses.delete(id)
    for (const id of this.messages.keys()) if (!liveContainers.has(id)) this.messages.delete(id)
    const liveSandboxes = new Set(sandboxes.map((s) => s.id))
    for (const id of this.sandboxIps.keys()) if (!liveSandboxes.has(id)) this.sandboxIps.delete(id)
  }
}

