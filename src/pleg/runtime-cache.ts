// The one view of the runtime that every reader shares (the kubelet's container cache,
// pkg/kubelet/container/cache.go). The PLEG refreshes it every second in `watch`; syncs, `run`,
// `get`, `plan` and `down` read it. A reader says how fresh it needs the view with the kubelet's
// GetNewerThan rule: a pod changed at time t is read from a refresh that started after t, and only
// a view older than that costs a new read of the runtime. Refreshes run one at a time; readers that
// need the same freshness share one.
import type {ImageService, RuntimeService} from '../cri/port.js'
import {normalizeImageRef} from '../images/reference.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {noTerminationMessages, type TerminationMessageReader} from '../kuberuntime/termination-message.js'
import type {Clock} from '../util/clock.js'
import {RuntimeInspector} from './inspector.js'
import {OwnChanges} from './own-changes.js'

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
  private readonly changes: OwnChanges
  /** Pods read back alone after this process's own changes, newer than the last full read. */
  private readBack = new Map<string, {at: number; seq: number; pod: RuntimePod | undefined}>()
  /** Reads in the order they began (clock times can tie): which of two views is newer. */
  private seq = 0
  private fullSeq = 0

  constructor(
    runtime: RuntimeService,
    images: ImageService,
    private readonly clock: Clock,
    /** Only this node's pods (see NODE_LABEL). */
    nodeName?: string,
    /** Reads exited containers' termination messages (node/ binds it to the host). */
    messages: TerminationMessageReader = noTerminationMessages,
  ) {
    const inspector = new RuntimeInspector(runtime, nodeName, messages)
    this.inspector = inspector
    this.changes = new OwnChanges(clock, (id, ip) => inspector.noteSandboxIp(id, ip))
    this.pods = new Timed(clock, async () => {
      const start = clock.now()
      const seq = ++this.seq
      const pods = await inspector.read()
      this.fullSeq = Math.max(this.fullSeq, seq)
      // The listing was asked for after `start`: it holds every change recorded before.
      this.changes.settle(start, inspector.owners())
      for (const [uid, r] of this.readBack) if (r.seq < seq) this.readBack.delete(uid)
      return new Map(pods.map((p) => [p.uid, p]))
    })
    this.imageSet = new Timed(clock, () => presentImages(images))
  }

  /** A new read of every pod (the PLEG's relist). Rejects when the runtime cannot be listed. */
  async refresh(): Promise<RuntimePod[]> {
    return [...(await this.pods.refresh()).values()]
  }

  /**
   * A read for a reader that shows pods and exits (`get`, `logs`, `describe`): the pods that
   * `detailsFor` declines, judged on the listing, are returned as listed, without asking the
   * runtime for their containers' status or their sandbox's IP. Not kept as the cache's view,
   * which is always a full read.
   */
  readSome(detailsFor: (listed: RuntimePod) => boolean | Promise<boolean>): Promise<RuntimePod[]> {
    return this.inspector.read(detailsFor)
  }

  /**
   * The runtime port with every change recorded, for the code that changes pods: a pod changed
   * only by its own creations is then read back alone (one ContainerStatus per new container)
   * instead of by a relist of every pod.
   */
  track(runtime: RuntimeService): RuntimeService {
    return this.changes.wrap(runtime)
  }

  /** One pod from a read that began after minTime (undefined: the runtime has none). */
  async getNewerThan(uid: string, minTime: number): Promise<RuntimePod | undefined> {
    const last = this.pods.last
    if (last.value !== undefined && last.at > minTime) return last.value.get(uid)
    const back = this.readBack.get(uid)
    if (back && back.at > minTime) return back.pod
    return (await this.pods.newerThan(minTime)).get(uid)
  }

  /**
   * The pod right after a sync changed it: read back alone when every change since the last full
   * read was this process's own creation (one ContainerStatus per new container, no listing), else
   * from a full read that begins now. What someone else changed meanwhile is seen at the next full
   * read, as the kubelet's cache sees it at the next relist.
   */
  async afterOwnChanges(uid: string): Promise<RuntimePod | undefined> {
    const changes = this.pods.last.value !== undefined ? this.changes.readable(uid) : undefined
    if (!changes) return this.getNewerThan(uid, this.clock.now())
    const at = this.clock.now()
    const seq = ++this.seq
    const pod = await this.inspector.readPod(uid, changes)
    this.readBack.set(uid, {at, seq, pod})
    return pod
  }

  /** Every pod, from a read that began after minTime. */
  async allNewerThan(minTime: number): Promise<RuntimePod[]> {
    await this.pods.newerThan(minTime)
    return this.all()
  }

  /** Images present on the node (tags, digests and ids), from a read after minTime and not older than IMAGE_LIST_MAX_AGE_MS. */
  images(minTime: number): Promise<Set<string>> {
    return this.imageSet.newerThan(Math.max(minTime, this.clock.now() - IMAGE_LIST_MAX_AGE_MS))
  }

  /** The last view of a pod, however old (undefined before the first read or when the runtime has none). */
  get(uid: string): RuntimePod | undefined {
    const back = this.readBack.get(uid)
    return back && back.seq > this.fullSeq ? back.pod : this.pods.last.value?.get(uid)
  }

  /** The last view of every pod, however old. */
  all(): RuntimePod[] {
    const pods = new Map(this.pods.last.value ?? [])
    // Pods read back after the last full read began are newer than what it saw of them.
    for (const [uid, back] of this.readBack) {
      if (back.seq < this.fullSeq) continue
      if (back.pod) pods.set(uid, back.pod)
      else pods.delete(uid)
    }
    return [...pods.values()]
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
