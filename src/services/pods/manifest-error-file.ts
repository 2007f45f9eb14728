// <root-dir>/pods/<uid>/manifest-error.json: the problems of a pod's manifest while `watch` keeps
// its last good version running, for readers in other processes (get, describe, the API). It names
// the watch that wrote it: a reader shows it only while that process runs, so a file left behind
// by a stopped watch never makes a pod look broken. Written atomically like pod.json.
import {join} from 'node:path'
import type {StatusWriter} from '../../api/status-record.js'
import {podDataDir} from '../../kuberuntime/naming.js'
import type {ManifestErrorNote} from '../../status/manifest-error.js'
import {readBoundedSync} from '../../host/read-bounded.js'
import {removeRecordFile, writeRecordFile} from '../../host/record-file.js'

const FILE = 'manifest-error.json'
/** The problems of one file, each bounded by validation: far below this. */
const MAX_BYTES = 64 * 1024

export interface ManifestErrorFile extends ManifestErrorNote {
  writer: StatusWriter
}

export async function writeManifestError(rootDir: string, uid: string, note: ManifestErrorFile): Promise<void> {
  await writeRecordFile(podDataDir(rootDir, uid), FILE, JSON.stringify(note) + '\n', 0o640)
}

export async function removeManifestError(rootDir: string, uid: string): Promise<void> {
  await removeRecordFile(join(podDataDir(rootDir, uid), FILE))
}

/** One synchronous read, as loadPod: `get` of many pods reads one per pod. */
export function readManifestError(rootDir: string, uid: string): ManifestErrorFile | undefined {
  try {
    const v = JSON.parse(readBoundedSync(join(podDataDir(rootDir, uid), FILE), MAX_BYTES, {follow: false})) as Partial<ManifestErrorFile>
    return typeof v.message === 'string' && typeof v.at === 'number' && typeof v.writer === 'object' && v.writer !== null ? (v as ManifestErrorFile) : undefined
  } catch {
    return undefined
  }
}
