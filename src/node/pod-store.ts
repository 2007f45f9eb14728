// The last applied manifest of each pod, under <root-dir>/pods/<uid>/pod.json. With the runtime's
// labels it lets `get`, `logs` and `down` rebuild a pod's full picture without the manifest, and
// survives kube-node restarts. Written atomically (temp file + rename) so a crash never leaves
// half a file.
import {mkdir, readFile, rename, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import type {StaticPod} from '../api/types.js'
import {podDataDir} from '../kuberuntime/naming.js'

const FILE = 'pod.json'

export async function savePod(rootDir: string, sp: StaticPod): Promise<void> {
  const dir = podDataDir(rootDir, sp.pod.metadata.uid)
  await mkdir(dir, {recursive: true, mode: 0o750})
  const tmp = join(dir, `.${FILE}.${process.pid}.tmp`)
  await writeFile(tmp, JSON.stringify(sp, null, 2) + '\n', {mode: 0o640})
  await rename(tmp, join(dir, FILE))
}

export async function loadPod(rootDir: string, uid: string): Promise<StaticPod | undefined> {
  try {
    return JSON.parse(await readFile(join(podDataDir(rootDir, uid), FILE), 'utf8')) as StaticPod
  } catch {
    return undefined
  }
}
