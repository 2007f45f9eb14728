// What this process itself changed in the runtime since the last full read, per pod. The runtime
// port handed to the sync path is wrapped so that every change is recorded as it is made: the
// sandboxes and containers it created (with what the runtime said of them), or, for a stop or a
// removal, only that the pod changed in ways a status call cannot tell. A pod whose changes are
// all creations can then be read back with one ContainerStatus per new container instead of a
// relist of every pod on the node (runtime-cache.ts). Changes made by anyone else are seen at the
// next full read, as the kubelet's cache sees them at the next relist.
import type {ContainerConfig, PodSandboxConfig, PodSandboxStatus} from '../cri/api.js'
import type {CriCallOptions, RuntimeService} from '../cri/port.js'
import {POD_UID_LABEL} from '../kuberuntime/labels.js'
import type {Clock} from '../util/clock.js'

/** A pod's own creations since the last full read; `opaqueAt`: when something else changed it too. */
export interface PodChanges {
  sandboxes: Map<string, {at: number; status?: PodSandboxStatus | undefined}>
  containers: Map<string, {at: number; sandboxId: string}>
  opaqueAt?: number | undefined
}

export class OwnChanges {
  private pods = new Map<string, PodChanges>()
  /** A change whose pod is unknown: no pod can be read back alone until the next full read. */
  private opaqueAt: number | undefined
  /** Sandbox and container ids → pod UID, from the last full read and from creations. */
  private uidOf = new Map<string, string>()

  constructor(
    private readonly clock: Clock,
    /** Told the IP of each new sandbox the runtime described as ready: it never changes while the sandbox lives. */
    private readonly onReadySandbox: (sandboxId: string, ip: string) => void = () => {},
  ) {}

  /** After a full read that began at `start` (and saw `owners`): it holds what was recorded before it. */
  settle(start: number, owners: Iterable<[string, string]>): void {
    for (const [id, uid] of owners) this.uidOf.set(id, uid)
    for (const [uid, changes] of this.pods) {
      for (const [id, s] of changes.sandboxes) if (s.at < start) changes.sandboxes.delete(id)
      for (const [id, c] of changes.containers) if (c.at < start) changes.containers.delete(id)
      if (changes.opaqueAt !== undefined && changes.opaqueAt < start) changes.opaqueAt = undefined
      if (changes.sandboxes.size + changes.containers.size === 0 && changes.opaqueAt === undefined) this.pods.delete(uid)
    }
    if (this.opaqueAt !== undefined && this.opaqueAt < start) this.opaqueAt = undefined
  }

  /** The pod's changes when all of them are creations this process can read back; else undefined. */
  readable(uid: string): PodChanges | undefined {
    if (this.opaqueAt !== undefined) return undefined
    const changes = this.pods.get(uid)
    if (!changes || changes.opaqueAt !== undefined) return undefined
    for (const s of changes.sandboxes.values()) if (!s.status) return undefined
    return changes
  }

  /** The runtime port with every change recorded; reads pass through. */
  wrap(runtime: RuntimeService): RuntimeService {
    const opaque = (id: string): void => this.markOpaque(this.uidOf.get(id))
    return {
      // Reads (and exec, which changes no container's state) pass through.
      version: () => runtime.version(),
      status: () => runtime.status(),
      runtimeFeatures: () => runtime.runtimeFeatures(),
      listPodSandbox: (filter) => runtime.listPodSandbox(filter),
      listContainers: (filter) => runtime.listContainers(filter),
      containerStatus: (id) => runtime.containerStatus(id),
      reopenContainerLog: (id) => runtime.reopenContainerLog(id),
      listContainerStats: (filter) => runtime.listContainerStats(filter),
      runPodSandbox: async (config: PodSandboxConfig, handler?: string) => {
        const id = await runtime.runPodSandbox(config, handler)
        const uid = config.labels[POD_UID_LABEL]
        if (uid === undefined) this.markOpaque(undefined)
        else {
          this.uidOf.set(id, uid)
          this.changes(uid).sandboxes.set(id, {at: this.clock.now()})
        }
        return id
      },
      podSandboxStatus: async (id: string) => {
        const status = await runtime.podSandboxStatus(id)
        const uid = this.uidOf.get(id)
        const created = uid === undefined ? undefined : this.pods.get(uid)?.sandboxes.get(id)
        // What the runtime said of a sandbox just created stands in for its listing.
        if (created && !created.status) {
          created.status = status
          if (status.state === 'SANDBOX_READY') this.onReadySandbox(id, status.network?.ip ?? '')
        }
        return status
      },
      createContainer: async (sandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig) => {
        const id = await runtime.createContainer(sandboxId, config, sandboxConfig)
        const uid = this.uidOf.get(sandboxId) ?? config.labels[POD_UID_LABEL]
        if (uid === undefined) this.markOpaque(undefined)
        else {
          this.uidOf.set(id, uid)
          this.changes(uid).containers.set(id, {at: this.clock.now(), sandboxId})
        }
        return id
      },
      startContainer: async (id: string) => {
        await runtime.startContainer(id)
        // A container created here is read back anyway; one from before changed state unseen.
        const uid = this.uidOf.get(id)
        if (uid === undefined || !this.pods.get(uid)?.containers.has(id)) opaque(id)
      },
      stopPodSandbox: async (id: string) => {
        opaque(id)
        await runtime.stopPodSandbox(id)
      },
      removePodSandbox: async (id: string) => {
        opaque(id)
        await runtime.removePodSandbox(id)
      },
      stopContainer: async (id: string, timeoutSeconds: number) => {
        opaque(id)
        await runtime.stopContainer(id, timeoutSeconds)
      },
      removeContainer: async (id: string) => {
        opaque(id)
        await runtime.removeContainer(id)
      },
      execSync: (id: string, cmd: string[], timeoutSeconds: number, opts?: CriCallOptions) => runtime.execSync(id, cmd, timeoutSeconds, opts),
    }
  }

  private changes(uid: string): PodChanges {
    let changes = this.pods.get(uid)
    if (!changes) {
      changes = {sandboxes: new Map(), containers: new Map()}
      this.pods.set(uid, changes)
    }
    return changes
  }

  private markOpaque(uid: string | undefined): void {
    if (uid === undefined) this.opaqueAt = this.clock.now()
    else this.changes(uid).opaqueAt = this.clock.now()
  }
}
