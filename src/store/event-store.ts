// The events of every pod this process manages, kept as the kubelet's event recorder keeps them:
// an event like an earlier one of the same pod (same object, type, reason and message) only counts
// up and moves its last timestamp. Per pod at most MAX_EVENTS_PER_POD and in all at most
// MAX_EVENTS_TOTAL (the least recent go first),
// each message at most MAX_EVENT_MESSAGE characters; written to <root-dir>/pods/<uid>/events.json
// at most once a second per pod, merged with what another process wrote there before, and removed
// with the pod's directory.
import type {EventObject, EventSink, EventType, PodEvent, PodEvents} from '../api/events.js'
import type {HostFs} from '../host/port.js'
import {podDataDir, podsDir} from '../kuberuntime/naming.js'
import type {Clock} from '../util/clock.js'
import {errorMessage} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import {readJsonFile, writeJsonFile} from './json-file.js'
import {PodDirs} from './pod-dir.js'
import {RecordWriter} from './record-writer.js'

export const EVENTS_FILE = 'events.json'
export const MAX_EVENTS_PER_POD = 100
/** Across every pod this process records: the pod with the most events gives up its least recent. */
export const MAX_EVENTS_TOTAL = 5000
/** The API server's limit on an event's message. */
export const MAX_EVENT_MESSAGE = 1024
const MAX_EVENTS_BYTES = 1024 * 1024

export interface EventStoreDeps {
  fs: HostFs
  rootDir: string
  clock: Clock
  logger: Logger
  /** The node's registry of pod directories, shared with the executor; a store alone makes its own. */
  podDirs?: PodDirs | undefined
}

interface PodLog {
  object: Omit<EventObject, 'fieldPath'>
  events: PodEvent[]
  /** Set while what another process wrote is read in; events wait for it. */
  loading?: Promise<void> | undefined
}

function eventsPath(rootDir: string, uid: string): string {
  return `${podDataDir(rootDir, uid)}/${EVENTS_FILE}`
}

/** Adds an event to a pod's list, coalescing a repeat and keeping the list bounded. Pure. */
export function addEvent(events: readonly PodEvent[], e: Omit<PodEvent, 'count' | 'firstTimestamp' | 'lastTimestamp'>, now: number): PodEvent[] {
  const same = events.findIndex((x) => x.type === e.type && x.reason === e.reason && x.message === e.message && x.fieldPath === e.fieldPath)
  const next = [...events]
  if (same >= 0) {
    const old = next[same] as PodEvent
    next[same] = {...old, count: old.count + 1, lastTimestamp: now}
  } else {
    next.push({...e, count: 1, firstTimestamp: now, lastTimestamp: now})
  }
  if (next.length <= MAX_EVENTS_PER_POD) return next
  return next.sort((a, b) => a.lastTimestamp - b.lastTimestamp).slice(next.length - MAX_EVENTS_PER_POD)
}

/** Keeps both lists' events; one known to both keeps the higher count. */
function mergeEvents(stored: readonly PodEvent[], mine: readonly PodEvent[]): PodEvent[] {
  let out = [...stored]
  for (const e of mine) {
    const i = out.findIndex((x) => x.type === e.type && x.reason === e.reason && x.message === e.message && x.fieldPath === e.fieldPath)
    if (i < 0) out.push(e)
    else {
      const old = out[i] as PodEvent
      out[i] = {...e, count: Math.max(old.count, e.count), firstTimestamp: Math.min(old.firstTimestamp, e.firstTimestamp), lastTimestamp: Math.max(old.lastTimestamp, e.lastTimestamp)}
    }
  }
  if (out.length > MAX_EVENTS_PER_POD) out = out.sort((a, b) => a.lastTimestamp - b.lastTimestamp).slice(out.length - MAX_EVENTS_PER_POD)
  return out
}

export class EventStore implements EventSink {
  private readonly pods = new Map<string, PodLog>()
  private readonly writer: RecordWriter
  private readonly dirs: PodDirs

  constructor(private readonly deps: EventStoreDeps) {
    const dirs = (this.dirs = deps.podDirs ?? new PodDirs(deps.fs, deps.rootDir))
    this.writer = new RecordWriter({
      clock: deps.clock,
      logger: deps.logger,
      minIntervalMs: 1000,
      what: 'events',
      write: (uid, text) => dirs.write(uid, () => writeJsonFile(deps.fs, eventsPath(deps.rootDir, uid), text)),
    })
  }

  emit(object: EventObject, type: EventType, reason: string, message: string): void {
    const log = this.logOf(object)
    const cut = message.length > MAX_EVENT_MESSAGE ? `${message.slice(0, MAX_EVENT_MESSAGE)}…` : message
    log.events = addEvent(log.events, {type, reason, message: cut, ...(object.fieldPath ? {fieldPath: object.fieldPath} : {})}, this.deps.clock.now())
    this.trimTotal()
    if (log.loading === undefined) this.save(object.uid, log)
  }

  private trimTotal(): void {
    let total = 0
    for (const l of this.pods.values()) total += l.events.length
    while (total > MAX_EVENTS_TOTAL) {
      const [uid, biggest] = [...this.pods.entries()].reduce((a, b) => (b[1].events.length > a[1].events.length ? b : a))
      biggest.events = [...biggest.events].sort((a, b) => a.lastTimestamp - b.lastTimestamp).slice(1)
      total--
      if (biggest.loading === undefined) this.save(uid, biggest)
    }
  }

  /** The pod is being removed: nothing more is written for it. */
  forget(uid: string): Promise<void> {
    this.pods.delete(uid)
    this.dirs.forget(uid)
    return this.writer.forget(uid)
  }

  flush(): Promise<void> {
    return Promise.all([...this.pods.values()].map((l) => l.loading)).then(() => this.writer.flush())
  }

  writeCount(): number {
    return this.writer.writeCount()
  }

  private logOf(object: EventObject): PodLog {
    let log = this.pods.get(object.uid)
    if (log) return log
    const entry: PodLog = {object: {uid: object.uid, name: object.name, namespace: object.namespace}, events: []}
    log = entry
    this.pods.set(object.uid, entry)
    // Another process (an earlier `run`, a `watch` before a restart) may have written this pod's events.
    entry.loading = readPodEvents(this.deps.fs, this.deps.rootDir, object.uid)
      .then((stored) => {
        if (stored) entry.events = mergeEvents(stored.events, entry.events)
      })
      .catch((err: unknown) => this.deps.logger.debug(2, 'Could not read the pod events', {uid: object.uid, err: errorMessage(err)}))
      .finally(() => {
        entry.loading = undefined
        if (this.pods.get(object.uid) === entry) this.save(object.uid, entry)
      })
    return entry
  }

  private save(uid: string, log: PodLog): void {
    const doc: PodEvents = {apiVersion: 'kube-node.io/v1', kind: 'PodEvents', ...log.object, events: log.events}
    this.writer.set(uid, JSON.stringify(doc))
  }
}

export async function readPodEvents(fs: HostFs, rootDir: string, uid: string): Promise<PodEvents | undefined> {
  const v = await readJsonFile(fs, eventsPath(rootDir, uid), MAX_EVENTS_BYTES)
  if (typeof v !== 'object' || v === null) return undefined
  const doc = v as Partial<PodEvents>
  if (doc.apiVersion !== 'kube-node.io/v1' || doc.kind !== 'PodEvents' || doc.uid !== uid || !Array.isArray(doc.events)) return undefined
  return doc as PodEvents
}

/** Every pod directory's events. */
export async function readAllPodEvents(fs: HostFs, rootDir: string): Promise<PodEvents[]> {
  const uids = await fs.list(podsDir(rootDir))
  const all = await Promise.all(uids.map((uid) => readPodEvents(fs, rootDir, uid).catch(() => undefined)))
  return all.filter((e): e is PodEvents => e !== undefined)
}
