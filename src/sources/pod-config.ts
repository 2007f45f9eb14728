// The merge of every source's snapshots into one desired set of pods, and the operations that
// move the pod workers from the previous set to the new one (the kubelet's PodConfig, SET mode
// turned into ADD / UPDATE / REMOVE / RECONCILE). State, but no I/O and no clock: `now` is
// passed in for `kubernetes.io/config.seen`.
//
// Pods are keyed by UID. Because a static pod's UID comes from node, namespace and name, a pod
// that moves between files or sources stays the same pod (an UPDATE or RECONCILE, never a
// REMOVE + ADD that would restart it).
import type {ObjectStore, PodUpdate, StaticPod} from '../api/types.js'
import {createObjectStore} from '../manifest/object-store.js'
import {CONFIG_SEEN_ANNOTATION} from '../manifest/defaults.js'
import {InternalError, type FieldIssue} from '../util/errors.js'
import {needsReconcile, rfc3339NanoFixed, semanticallyDiffers} from './pod-compare.js'
import type {SourceSnapshot} from './types.js'

interface Held {
  pod: StaticPod
  source: string
}

export class PodConfig {
  private readonly latest = new Map<string, SourceSnapshot>()
  private readonly ready = new Set<string>()
  /** UID → pod, in desired order. */
  private stored = new Map<string, Held>()
  private conflicts = new Map<string, FieldIssue[]>()
  private overCapacity: FieldIssue[] = []

  /** `maxPods`: the most pods all sources together may define; the rest are refused, not admitted. */
  constructor(
    private readonly sourceNames: string[],
    private readonly maxPods = Number.POSITIVE_INFINITY,
  ) {}

  /** Merge a snapshot; returns the operations for the pod workers, in the kubelet's order REMOVE, ADD, UPDATE, RECONCILE (each non-empty). */
  apply(snapshot: SourceSnapshot, now: number): PodUpdate[] {
    if (!this.sourceNames.includes(snapshot.source)) {
      throw new InternalError(`pod config: snapshot from unknown source "${snapshot.source}"`)
    }
    this.latest.set(snapshot.source, snapshot)
    if (snapshot.complete !== false) this.ready.add(snapshot.source)

    const desired = this.resolve()
    const removed: StaticPod[] = []
    const added: StaticPod[] = []
    const updated: StaticPod[] = []
    const reconciled: StaticPod[] = []
    for (const [uid, held] of this.stored) if (!desired.has(uid)) removed.push(held.pod)

    const next = new Map<string, Held>()
    for (const [uid, want] of desired) {
      const old = this.stored.get(uid)
      if (!old) {
        const pod = withSeen(want.pod, rfc3339NanoFixed(now))
        next.set(uid, {pod, source: want.source})
        added.push(pod)
        continue
      }
      const seen = old.pod.pod.metadata.annotations?.[CONFIG_SEEN_ANNOTATION] ?? rfc3339NanoFixed(now)
      if (semanticallyDiffers(old.pod.pod, want.pod.pod)) {
        const pod = withSeen(want.pod, seen)
        next.set(uid, {pod, source: want.source})
        updated.push(pod)
      } else if (needsReconcile(old.pod, want.pod)) {
        const pod = withSeen(want.pod, seen)
        next.set(uid, {pod, source: want.source})
        reconciled.push(pod)
      } else {
        next.set(uid, {pod: old.pod, source: want.source})
      }
    }
    this.stored = next

    const ops: PodUpdate[] = []
    const push = (op: PodUpdate['op'], pods: StaticPod[]): void => {
      if (pods.length > 0) ops.push({op, pods: pods.map((p) => structuredClone(p))})
    }
    push('REMOVE', removed)
    push('ADD', added)
    push('UPDATE', updated)
    push('RECONCILE', reconciled)
    return ops
  }

  /** Every configured source has delivered at least one snapshot. */
  allSourcesReady(): boolean {
    return this.sourceNames.every((s) => this.ready.has(s))
  }

  /** Current desired pods, all sources. */
  pods(): StaticPod[] {
    return [...this.stored.values()].map((h) => structuredClone(h.pod))
  }

  /** ConfigMaps and Secrets of all sources (the first source defining a name wins). */
  objects(): ObjectStore {
    const snaps = this.sourceNames.map((s) => this.latest.get(s))
    return createObjectStore(
      snaps.flatMap((s) => s?.configMaps ?? []),
      snaps.flatMap((s) => s?.secrets ?? []),
    )
  }

  /** Current issues by source (for logs and /pods). */
  issues(): FieldIssue[] {
    return [...this.sourceNames.flatMap((s) => [...(this.latest.get(s)?.issues ?? []), ...(this.conflicts.get(s) ?? [])]), ...this.overCapacity]
  }

  /** The pods left out because the sources define more than maxPods, one issue per location. */
  capacityIssues(): FieldIssue[] {
    return this.overCapacity
  }

  /**
   * The desired pods of all sources, UID → pod in source order. A namespace/name or UID defined
   * twice: the pod already running from a source keeps it, otherwise the first in source order;
   * the other is left out and reported on its source.
   */
  private resolve(): Map<string, Held> {
    const candidates: Array<Held & {order: number}> = []
    for (const source of this.sourceNames) {
      for (const pod of this.latest.get(source)?.pods ?? []) candidates.push({pod, source, order: candidates.length})
    }
    const holds = (c: Held): boolean => {
      const held = this.stored.get(c.pod.pod.metadata.uid)
      return held !== undefined && held.source === c.source && nameKey(held.pod) === nameKey(c.pod)
    }
    const byPriority = [...candidates].sort((a, b) => Number(holds(b)) - Number(holds(a)) || a.order - b.order)
    const byName = new Map<string, Held>()
    const byUid = new Map<string, Held>()
    const accepted = new Set<number>()
    const refused: Held[] = []
    this.conflicts = new Map()
    for (const c of byPriority) {
      const other = byName.get(nameKey(c.pod)) ?? byUid.get(c.pod.pod.metadata.uid)
      if (other) {
        const list = this.conflicts.get(c.source) ?? []
        list.push(conflictIssue(c, other))
        this.conflicts.set(c.source, list)
        continue
      }
      byName.set(nameKey(c.pod), c)
      byUid.set(c.pod.pod.metadata.uid, c)
      // Pods already held come first in byPriority: a new file never displaces a running pod.
      if (accepted.size >= this.maxPods) {
        refused.push(c)
        continue
      }
      accepted.add(c.order)
    }
    this.overCapacity = capacityIssues(refused, this.maxPods)
    const desired = new Map<string, Held>()
    for (const c of candidates) if (accepted.has(c.order)) desired.set(c.pod.pod.metadata.uid, {pod: c.pod, source: c.source})
    return desired
  }
}

function nameKey(p: StaticPod): string {
  return `${p.pod.metadata.namespace}/${p.manifestName}`
}

/** One issue per location naming its refused pods (a few of them) and the limit. */
function capacityIssues(refused: readonly Held[], maxPods: number): FieldIssue[] {
  const byLocation = new Map<string, Held[]>()
  for (const r of refused) {
    const list = byLocation.get(r.pod.source.location) ?? []
    list.push(r)
    byLocation.set(r.pod.source.location, list)
  }
  return [...byLocation].map(([location, held]) => {
    const names = held.slice(0, 3).map((h) => `"${nameKey(h.pod)}"`).join(', ') + (held.length > 3 ? ` and ${held.length - 3} more` : '')
    return {
      location,
      document: held[0]!.pod.source.document,
      field: '',
      message: `${held.length === 1 ? 'pod' : `${held.length} pods`} ${names} not added: the manifest sources define more than maxPods (${maxPods}) pods, the most this node runs; the pods already running keep their places`,
    }
  })
}

function conflictIssue(loser: Held, winner: Held): FieldIssue {
  const sameName = nameKey(loser.pod) === nameKey(winner.pod)
  const where = `${winner.pod.source.location}, document ${winner.pod.source.document}`
  return {
    location: loser.pod.source.location,
    document: loser.pod.source.document,
    field: sameName ? 'metadata.name' : 'metadata.uid',
    message: sameName
      ? `duplicate pod "${nameKey(loser.pod)}": also defined in ${where}; that one is used`
      : `pod UID "${loser.pod.pod.metadata.uid}" is also used by pod "${nameKey(winner.pod)}" in ${where}; that one is used`,
  }
}

/** A copy of the pod with `kubernetes.io/config.seen` set. */
function withSeen(p: StaticPod, seen: string): StaticPod {
  const copy = structuredClone(p)
  copy.pod.metadata.annotations = {...copy.pod.metadata.annotations, [CONFIG_SEEN_ANNOTATION]: seen}
  return copy
}
