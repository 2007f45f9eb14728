// The last applied manifest of each pod, under <root-dir>/pods/<uid>/pod.json. With the runtime's
// labels it lets `get`, `logs` and `down` rebuild a pod's full picture without the manifest, and
// survives kube-node restarts. Written atomically (temp file + rename) so a crash never leaves
// half a file, 0640 inside the pod's 0750 directory, and only by the sync path, which only
// validated and admitted pods reach.
import {join} from 'node:path'
import type {StaticPod} from '../api/types.js'
import {withPodFacts} from '../kuberuntime/pod-facts.js'
import {podDataDir} from '../kuberuntime/naming.js'
import {MAX_MANIFEST_BYTES} from '../manifest/limits.js'
import {readBoundedSync} from '../host/read-bounded.js'
import {writeRecordFile} from '../host/record-file.js'

const FILE = 'pod.json'
/** A pod.json is one validated manifest as indented JSON: larger than its YAML, never by this much. */
const MAX_POD_JSON_BYTES = 4 * MAX_MANIFEST_BYTES

async function writePodJson(rootDir: string, uid: string, text: string): Promise<void> {
  await writeRecordFile(podDataDir(rootDir, uid), FILE, text, 0o640)
}

/** savePod that writes only when a pod's manifest changed since this process last wrote it. */
export function podRecorder(rootDir: string): (sp: StaticPod) => Promise<void> {
  const written = new Map<string, string>()
  return async (sp) => {
    const uid = sp.pod.metadata.uid
    // The facts are worked out again when the pod is loaded, never stored.
    const text = JSON.stringify({...sp, facts: undefined}, null, 2) + '\n'
    if (written.get(uid) === text) return
    await writePodJson(rootDir, uid, text)
    written.set(uid, text)
  }
}

export async function loadPod(rootDir: string, uid: string): Promise<StaticPod | undefined> {
  try {
    // One synchronous read: `get` of 50 pods reads 50 of these, and thread-pool round trips cost more.
    return withPodFacts(JSON.parse(readBoundedSync(join(podDataDir(rootDir, uid), FILE), MAX_POD_JSON_BYTES, {follow: false})) as Omit<StaticPod, 'facts'>)
  } catch {
    return undefined
  }
}
