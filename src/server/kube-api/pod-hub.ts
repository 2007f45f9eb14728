// The pods the API serves, with resourceVersions: one shared view that every list and watch
// reads. It re-reads the pods (the same reader `get pods` uses) on a list and, while anyone
// watches, once per poll period; each change gets the next resourceVersion and goes into a
// bounded history, so a watch started from a list's resourceVersion misses nothing in between.
// Every refresh gets a read that starts after it was asked for, so no list answers pods older
// than the request. Reads are serialised and start at least `minGapMs` apart: the requests that
// arrive meanwhile share the next read, so a flood of lists (which need no credential) costs the
// runtime a bounded number of calls a second, however many clients send them.
import type {Pod} from '../../api/types.js'
import {diffPods, snapshotOf, type PodChange, type Snapshot} from './pod-diff.js'
import {apiPod} from './pods.js'

export interface HubChange extends PodChange {
  resourceVersion: number
}

export type HubListener = (changes: readonly HubChange[]) => void

export interface PodHubOptions {
  load: () => Promise<Pod[]>
  now: () => number
  /** Waits, on the same clock as `now`. */
  sleep: (ms: number) => Promise<void>
  /** The least time between the starts of two reads. */
  minGapMs: number
  pollMs: number
  /** Changes kept for watches that start from an older resourceVersion. */
  historySize: number
  /** A periodic read (for the watches) failed; a list's read rejects instead. */
  onError: (err: unknown) => void
}

export class PodHub {
  // Starts from the clock so a restarted daemon never reuses a version a client still holds.
  private version: number
  private current = new Map<string, Snapshot>()
  private readonly history: HubChange[] = []
  /** The oldest version whose successors are all in the history. */
  private historyFloor: number
  private readonly listeners = new Set<HubListener>()
  private inFlight: Promise<void> | undefined
  /** The read that the requests arriving during `inFlight` (or within the gap) wait for. */
  private queued: Promise<void> | undefined
  private lastStart = Number.NEGATIVE_INFINITY
  private timer: NodeJS.Timeout | undefined
  private loaded = false

  constructor(private readonly opts: PodHubOptions) {
    this.version = opts.now()
    this.historyFloor = this.version
  }

  get resourceVersion(): string {
    return String(this.version)
  }

  /**
   * Re-reads the pods, in a read that starts after this call (shared with the other callers
   * waiting for it); rejects when that read fails, keeping the pods it had.
   */
  refresh(): Promise<void> {
    if (this.queued) return this.queued
    const wait = this.waitMs()
    if (!this.inFlight && wait === 0) return this.begin()
    const previous = this.inFlight
    this.queued = (async () => {
      await previous?.catch(() => {})
      const left = this.waitMs()
      if (left > 0) await this.opts.sleep(left)
      // Whoever asks from now on may have seen a change this read misses: they wait for the next.
      this.queued = undefined
      return this.begin()
    })()
    return this.queued
  }

  /** How long until the next read may start; a clock set back does not hold reads off. */
  private waitMs(): number {
    const since = this.opts.now() - this.lastStart
    return since >= 0 && since < this.opts.minGapMs ? this.opts.minGapMs - since : 0
  }

  private begin(): Promise<void> {
    this.lastStart = this.opts.now()
    const read = this.read().finally(() => {
      if (this.inFlight === read) this.inFlight = undefined
    })
    this.inFlight = read
    return read
  }

  /** The current pods, each with its resourceVersion. */
  pods(): Pod[] {
    return [...this.current.values()].map((s) => s.pod)
  }

  /** The current version and the oldest one the history reaches back to. */
  versions(): {current: number; floor: number} {
    return {current: this.version, floor: this.historyFloor}
  }

  /**
   * The pods as they were at `version` (at least the history's floor): the current ones with
   * every later change undone, as a list with resourceVersionMatch=Exact reads them.
   */
  podsAt(version: number): Pod[] {
    const pods = new Map([...this.current].map(([uid, s]) => [uid, s.pod]))
    for (const c of [...this.history].reverse()) {
      if (c.resourceVersion <= version) break
      if (c.type === 'ADDED') pods.delete(c.uid)
      else pods.set(c.uid, c.previous ?? c.pod)
    }
    return [...pods.values()]
  }

  /**
   * Changes after `since`, or 'expired' when the history no longer reaches back that far
   * (the client must list again, as with an API server's 410 Gone).
   */
  changesSince(since: number): readonly HubChange[] | 'expired' {
    if (since < this.historyFloor) return 'expired'
    return this.history.filter((c) => c.resourceVersion > since)
  }

  subscribe(listener: HubListener): () => void {
    this.listeners.add(listener)
    this.timer ??= setInterval(() => void this.refresh().catch(this.opts.onError), this.opts.pollMs)
    return () => {
      this.listeners.delete(listener)
      if (this.listeners.size === 0) this.stop()
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
  }

  private async read(): Promise<void> {
    const pods = await this.opts.load()
    // The content is compared without the version this hub stamps on it.
    const next = snapshotOf(pods)
    const changes: HubChange[] = diffPods(this.current, next).map((c) => ({...c, resourceVersion: ++this.version}))
    const stamped = new Map<string, Snapshot>()
    for (const [uid, s] of next) {
      const old = this.current.get(uid)
      const change = changes.find((c) => c.uid === uid)
      const rv = change ? change.resourceVersion : Number(old?.pod.metadata?.resourceVersion ?? this.version)
      stamped.set(uid, {key: s.key, pod: apiPod(s.pod, String(rv))})
    }
    for (const c of changes) {
      const s = stamped.get(c.uid)
      if (s) c.pod = s.pod
      else c.pod = apiPod(c.pod, String(c.resourceVersion))
    }
    this.current = stamped
    if (!this.loaded) {
      // The first read is the starting state, not news: a watch from "now" starts after it.
      this.loaded = true
      this.historyFloor = this.version
      return
    }
    if (changes.length === 0) return
    this.history.push(...changes)
    const drop = this.history.length - this.opts.historySize
    if (drop > 0) this.historyFloor = this.history.splice(0, drop).at(-1)!.resourceVersion
    for (const l of this.listeners) l(changes)
  }
}
