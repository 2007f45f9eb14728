// A pod's private directory under --root-dir, made before anything is written for the pod.
import {podDataDir, podsDir} from '../kuberuntime/naming.js'
import type {HostFs} from '../host/port.js'

/**
 * The root dir (0750 when kube-node creates it), `<root>/pods` and `<root>/pods/<uid>` (always
 * 0750), made before anything is written below them, so no file of a pod (secrets, pod.json) is
 * ever reachable by other users.
 */
export async function ensurePodDir(fs: HostFs, rootDir: string, uid: string): Promise<string> {
  await fs.mkdirPrivate(rootDir)
  await fs.mkdirPrivate(podsDir(rootDir), {tighten: true})
  const dir = podDataDir(rootDir, uid)
  await fs.mkdirPrivate(dir, {tighten: true})
  return dir
}
