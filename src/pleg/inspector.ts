// Reads kube-node's pods from the runtime for the PLEG at the lowest cost: one ListPodSandbox and
// one ListContainers call, plus ContainerStatus only for containers that are new or whose state
// changed, and PodSandboxStatus only for sandboxes not yet seen ready. What those status calls
// learn is kept, since an exited container's status and a sandbox's IP never change.
import type {Container, ContainerStatus, PodSandbox} from '../cri/api.js'
import type {RuntimeService} from '../cri/port.js'
import {managedSelector, POD_UID_LABEL} from '../kuberuntime/labels.js'
import type {PodChanges} from './own-changes.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {buildRuntimePods} from '../kuberuntime/runtime-status.js'
import {ignoreNotFound} from '../cri/errors.js'
import {withTerminationMessages, type TerminationMessageReader} from '../kuberuntime/termination-message.js'

export class RuntimeInspector {
  private readonly statuses = new Map<string, ContainerStatus>()
  /** Exited containers' messages with their termination message: read once, they never change. */
  private readonly messages = new Map<string, string>()
  /** Sandboxes already asked while ready → their IP ('' when the runtime reported none). */
  private readonly sandboxIps = new Map<string, string>()

  private readonly selector: Record<string, string>
  /** The last full listing, which a read of one pod starts from. */
  private lastSandboxes: PodSandbox[] = []
  private lastContainers: Container[] = []

  constructor(
    private readonly runtime: RuntimeService,
    nodeName: string | undefined,
    private readonly readMessage: TerminationMessageReader,
  ) {
    this.selector = managedSelector(nodeName)
  }

  /**
   * Rejects when the runtime cannot be listed; the caches then keep what they knew. With
   * `detailsFor`, a pod it declines (judged on the listing alone) is returned as listed: no
   * container status, sandbox IP or termination message is asked for it.
   */
  async read(detailsFor?: (listed: RuntimePod) => boolean | Promise<boolean>): Promise<RuntimePod[]> {
    const [sandboxes, containers] = await Promise.all([
      this.runtime.listPodSandbox({labelSelector: this.selector}),
      this.runtime.listContainers({labelSelector: this.selector}),
    ])
    const declined = new Set<string>()
    if (detailsFor) {
      const listed = buildRuntimePods({sandboxes, containers, statuses: this.statuses, sandboxIps: this.sandboxIps})
      const wanted = await Promise.all(listed.map((p) => detailsFor(p)))
      listed.forEach((p, i) => wanted[i] || declined.add(p.uid))
    }
    const uidOfSandbox = new Map(sandboxes.map((s) => [s.id, s.labels[POD_UID_LABEL] ?? '']))
    const detailed = (sandboxId: string): boolean => !declined.has(uidOfSandbox.get(sandboxId) ?? '')
    await Promise.all([
      ...containers.filter((c) => detailed(c.podSandboxId) && this.needsStatus(c)).map((c) => this.fetchStatus(c.id)),
      ...sandboxes.filter((s) => detailed(s.id) && this.needsIp(s)).map((s) => this.fetchIp(s.id)),
    ])
    this.forgetAllBut(sandboxes, containers)
    this.lastSandboxes = sandboxes
    this.lastContainers = containers
    const pods = buildRuntimePods({sandboxes, containers, statuses: this.statuses, sandboxIps: this.sandboxIps})
    return Promise.all(pods.map((p) => (declined.has(p.uid) ? p : this.withMessages(p))))
  }

  /** Sandbox and container ids of the last full listing → their pod's UID. */
  *owners(): Iterable<[string, string]> {
    for (const s of this.lastSandboxes) {
      const uid = s.labels[POD_UID_LABEL]
      if (uid !== undefined) yield [s.id, uid]
    }
    const uidOfSandbox = new Map(this.lastSandboxes.map((s) => [s.id, s.labels[POD_UID_LABEL]]))
    for (const c of this.lastContainers) {
      const uid = uidOfSandbox.get(c.podSandboxId)
      if (uid !== undefined) yield [c.id, uid]
    }
  }

  /**
   * One pod read back after changes this process made to it alone (own-changes.ts): the last full
   * listing of the pod, the sandboxes it created as their status described them, and one
   * ContainerStatus per container it created. No listing call.
   */
  async readPod(uid: string, changes: PodChanges): Promise<RuntimePod | undefined> {
    const sandboxes = new Map(this.lastSandboxes.filter((s) => s.labels[POD_UID_LABEL] === uid).map((s) => [s.id, s]))
    for (const [id, s] of changes.sandboxes) if (s.status) sandboxes.set(id, s.status)
    const containers = new Map(this.lastContainers.filter((c) => sandboxes.has(c.podSandboxId)).map((c) => [c.id, c]))
    await Promise.all([
      ...[...changes.containers].map(async ([id, {sandboxId}]) => {
        const status = await ignoreNotFound(this.runtime.containerStatus(id))
        if (!status) {
          containers.delete(id)
          this.statuses.delete(id)
          return
        }
        this.statuses.set(id, status)
        const {metadata, image, imageRef, state, createdAt, labels, annotations} = status
        containers.set(id, {id, podSandboxId: sandboxId, metadata, image, imageRef, state, createdAt, labels, annotations})
      }),
      ...[...sandboxes.values()].filter((s) => this.needsIp(s)).map((s) => this.fetchIp(s.id)),
    ])
    const [pod] = buildRuntimePods({sandboxes: [...sandboxes.values()], containers: [...containers.values()], statuses: this.statuses, sandboxIps: this.sandboxIps})
    return pod && this.withMessages(pod)
  }

  private async withMessages(pod: RuntimePod): Promise<RuntimePod> {
    const exited = pod.containers.filter((c) => c.state === 'exited')
    if (exited.length === 0) return pod
    if (exited.some((c) => !this.messages.has(c.id))) {
      const read = await withTerminationMessages(pod, this.statuses, this.readMessage)
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

