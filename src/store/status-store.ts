// The status manager's store: each pod's last computed status in <root-dir>/pods/<uid>/status.json
// (0640 in the pod's 0750 directory, removed with it). Written only when the status changed, at
// most once a second per pod (RecordWriter), atomically; read by every process that shows a pod.
import type {PodStatus, StaticPod} from '../api/types.js'
import type {StatusRecord, StatusWriter} from '../api/status-record.js'
import type {HostFs} from '../host/port.js'
import {podConfigHash} from '../kuberuntime/hash.js'
import {podDataDir, podsDir} from '../kuberuntime/naming.js'
import type {Clock} from '../util/clock.js'
import type {Logger} from '../util/logger.js'
import {boundStrings} from './bounds.js'
import {readJsonFile, writeJsonFile} from './json-file.js'
import {RecordWriter} from './record-writer.js'
import {PodDirs} from './pod-dir.js'

export const STATUS_FILE = 'status.json'
/** A record is a few KiB; anything far larger was not written by kube-node. */
export const MAX_STATUS_BYTES = 256 * 1024
/** Longest message kept (the kubelet's termination messages are at most 4 KiB). */
export const MAX_MESSAGE_CHARS = 4096

export interface StatusStoreDeps {
  fs: HostFs
  rootDir: string
  clock: Clock
  logger: Logger
  /** The node's registry of pod directories, shared with the executor; a store alone makes its own. */
  podDirs?: PodDirs | undefined
}

/** What a sync hands to the store besides the status. */
export interface StatusExtras {
  backOffUntil?: Record<string, number> | undefined
  lastSyncError?: {message: string; at: number} | undefined
}

/** The status store as the loops use it. */
export interface StatusRecorder {
  record(sp: StaticPod, status: PodStatus, extras?: StatusExtras): void
  /** The pod is gone: its record goes too. */
  remove(uid: string): Promise<void>
}

export class StatusStore implements StatusRecorder {
  private readonly writer: RecordWriter
  private readonly dirs: PodDirs

  constructor(
    private readonly deps: StatusStoreDeps,
    private readonly identity: StatusWriter,
    minIntervalMs = 1000,
  ) {
    const dirs = (this.dirs = deps.podDirs ?? new PodDirs(deps.fs, deps.rootDir))
    this.writer = new RecordWriter({
      clock: deps.clock,
      logger: deps.logger,
      minIntervalMs,
      what: 'status',
      // The time of writing goes in front; the rest is what was compared.
      write: (uid, text) => dirs.write(uid, () => writeJsonFile(deps.fs, this.path(uid), `{"at":${deps.clock.now()},${text.slice(1)}`)),
    })
  }

  /** Records what this process computed for a pod (written soon, only if it changed). */
  record(sp: StaticPod, status: PodStatus, extras: StatusExtras = {}): void {
    const {uid, name, namespace} = sp.pod.metadata
    const rec: Omit<StatusRecord, 'at'> = {
      apiVersion: 'kube-node.io/v1',
      kind: 'PodStatusRecord',
      uid,
      name,
      namespace,
      writer: this.identity,
      manifestHash: podConfigHash(sp.pod),
      status: boundStrings(status, MAX_MESSAGE_CHARS),
      ...(extras.backOffUntil && Object.keys(extras.backOffUntil).length > 0 ? {backOffUntil: extras.backOffUntil} : {}),
      ...(extras.lastSyncError ? {lastSyncError: boundStrings(extras.lastSyncError, MAX_MESSAGE_CHARS)} : {}),
    }
    this.writer.set(uid, JSON.stringify(rec))
  }

  /** Stops recording a pod and removes its record (its directory may stay, for `run`'s pods). */
  async remove(uid: string): Promise<void> {
    await this.writer.forget(uid)
    this.dirs.forget(uid)
    await this.deps.fs.unlink(this.path(uid))
  }

  /** Writes what is still pending (before the process ends). */
  flush(): Promise<void> {
    return this.writer.flush()
  }

  writeCount(): number {
    return this.writer.writeCount()
  }

  private path(uid: string): string {
    return `${podDataDir(this.deps.rootDir, uid)}/${STATUS_FILE}`
  }

  /** The record of a pod, if one was written and reads back whole. */
  async read(uid: string): Promise<StatusRecord | undefined> {
    return readStatusRecord(this.deps.fs, this.deps.rootDir, uid)
  }
}

export async function readStatusRecord(fs: HostFs, rootDir: string, uid: string): Promise<StatusRecord | undefined> {
  const value = await readJsonFile(fs, `${podDataDir(rootDir, uid)}/${STATUS_FILE}`, MAX_STATUS_BYTES)
  return isStatusRecord(value, uid) ? value : undefined
}

/** Every pod directory's record (pods that were refused or never reached the runtime included). */
export async function readAllStatusRecords(fs: HostFs, rootDir: string): Promise<StatusRecord[]> {
  const uids = await fs.list(podsDir(rootDir))
  const records = await Promise.all(uids.map((uid) => readStatusRecord(fs, rootDir, uid).catch(() => undefined)))
  return records.filter((r): r is StatusRecord => r !== undefined)
}

function isStatusRecord(v: unknown, uid: string): v is StatusRecord {
  if (typeof v !== 'object' || v === null) return false
  const r = v as Partial<StatusRecord>
  return r.apiVersion === 'kube-node.io/v1' && r.kind === 'PodStatusRecord' && r.uid === uid && typeof r.at === 'number' && typeof r.status === 'object' && r.status !== null && typeof r.writer === 'object'
}
