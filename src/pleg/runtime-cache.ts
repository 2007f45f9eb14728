// The one view of the runtime that every reader shares (the kubelet's container cache,
// pkg/kubelet/container/cache.go). The PLEG refreshes it every second in `watch`; syncs, `run`,
// `get`, `plan` and `down` read it. A reader says how fresh it needs the view with the kubelet's
// GetNewerThan rule: a pod changed at time t is read from a refresh that started after t, and only
// a view older than that costs a new read of the runtime. Refreshes run one at a time; readers that
// need the same freshness share one.
import type {ImageService, RuntimeService} from '../cri/port.js'
import {normalizeImageRef} from '../images/reference.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {Clock} from '../util/clock.js'
import {RuntimeInspector} from './inspector.js'

/** The image list changes only by pulls (which mark the pod changed) or by hand: this old is fresh enough. */
export const IMAGE_LIST_MAX_AGE_MS = 30_000

interface Refresh<T> {
  /** When the read began (ms since the epoch). */
  start: number
  done: Promise<T>
}

/** A value read from the runtime, kept with the time its read began; reads run one at a time. */
class Timed<T> {
  private value: T | undefined
  private at = 0
  private inflight: Refresh<T> | undefined
  private queued: Promise<T> | undefined
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly clock: Clock,
    private readonly read: () => Promise<T>,
  ) {}

  /** The last value read and when its read began (0 before the first). */
  get last(): {value: T | undefined; at: number} {
    return {value: this.value, at: this.at}
  }

  /** A value whose read began after minTime: the cached one, a read in flight, or a new read. */
  async newerThan(minTime: number): Promise<T> {
    if (this.value !== undefined && this.at > minTime) return this.value
    if (this.inflight && this.inflight.start > minTime) return this.inflight.done
    return this.refresh()
  }

  /**
   * A read that begins after this call: a queued one that has not begun yet, or a new one after
   * the one in flight. Rejects when the runtime cannot be read; the old value stays.
   */
  refresh(): Promise<T> {
    if (this.queued) return this.queued
    const done = this.queue.then(async () => {
      this.queued = undefined
      const start = this.clock.now()
      const refresh: Refresh<T> = {start, done}
      this.inflight = refresh
      try {
        const value = await this.read()
        this.value = value
        this.at = start
        return value
      } finally {
        if (this.inflight === refresh) this.inflight = undefined
      }
    })
    this.queued = done
    this.queue = done.catch(() => undefined)
    return done
  }
}

export class RuntimeCache {
  private readonly pods: Timed<Map<string, RuntimePod>>
  private readonly imageSet: Timed<Set<string>>
  private readonly inspector: RuntimeInspector

  constructor(
    runtime: RuntimeService,
    images: ImageService,
    private readonly clock: Clock,
    /** Only this node's pods (see NODE_LABEL). */
    nodeName?: string,
  ) {
    const inspector = new RuntimeInspector(runtime, nodeName)
    this.inspector = inspector
    this.pods = new Timed(clock, async () => new Map((await inspector.read()).map((p) => [p.uid, p])))
    this.imageSet = new Timed(clock, () => presentImages(images))
  }

  /** The IP of a sandbox just created (its creator asked PodSandboxStatus): no read asks again. */
  noteSandboxIp(sandboxId: string, ip: string): void {
    this.inspector.noteSandboxIp(sandboxId, ip)
  }

  /** A new read of every pod (the PLEG's relist). Rejects when the runtime cannot be listed. */
  async refresh(): Promise<RuntimePod[]> {
    return [...(await this.pods.refresh()).values()]
  }

  /** One pod from a read that began after minTime (undefined: the runtime has none). */
  async getNewerThan(uid: string, minTime: number): Promise<RuntimePod | undefined> {
    return (await this.pods.newerThan(minTime)).get(uid)
  }

  /** Every pod, from a read that began after minTime. */
  async allNewerThan(minTime: number): Promise<RuntimePod[]> {
    return [...(await this.pods.newerThan(minTime)).values()]
  }

  /** Images present on the node (tags, digests and ids), from a read after minTime and not older than IMAGE_LIST_MAX_AGE_MS. */
  images(minTime: number): Promise<Set<string>> {
    return this.imageSet.newerThan(Math.max(minTime, this.clock.now() - IMAGE_LIST_MAX_AGE_MS))
  }

  /** The last view of a pod, however old (undefined before the first read or when the runtime has none). */
  get(uid: string): RuntimePod | undefined {
    return this.pods.last.value?.get(uid)
  }

  /** The last view of every pod, however old. */
  all(): RuntimePod[] {
    return [...(this.pods.last.value?.values() ?? [])]
  }

  /** When the last successful read of the pods began; 0 before the first. */
  timestamp(): number {
    return this.pods.last.at
  }
}

async function presentImages(images: ImageService): Promise<Set<string>> {
  const present = new Set<string>()
  for (const img of await images.listImages()) {
    for (const ref of [...img.repoTags, ...img.repoDigests]) present.add(normalizeImageRef(ref))
    present.add(img.id)
  }
  return present
}
