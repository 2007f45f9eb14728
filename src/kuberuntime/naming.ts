// Where a pod's files live on the host. Log paths follow the kubelet (pkg/kubelet/kuberuntime
// helpers.go) so that tools reading /var/log/pods find kube-node's logs; pod data dirs follow
// the kubelet's <root>/pods/<uid> layout under kube-node's own root dir. Every path is built by
// joinInside: a uid, name or namespace that is not one plain segment is refused, never joined.
import {joinInside} from '../util/contained-path.js'

/** `<podLogsDir>/<namespace>_<podName>_<uid>`: the sandbox's log directory. */
export function podLogDirectory(podLogsDir: string, namespace: string, podName: string, uid: string): string {
  return joinInside(podLogsDir, 'pod log directory (namespace, name, uid)', `${namespace}_${podName}_${uid}`)
}

/** `<containerName>/<restartCount>.log`, relative to the pod's log directory. */
export function containerLogPath(containerName: string, restartCount: number): string {
  // Checked as a segment: the runtime joins it to the sandbox's log directory.
  joinInside('/', 'container name', containerName)
  return `${containerName}/${restartCount}.log`
}

/** `<rootDir>/pods`: every pod's data directory lives here. */
export function podsDir(rootDir: string): string {
  return joinInside(rootDir, 'pods', 'pods')
}

/** `<rootDir>/pods/<uid>`: the pod's data directory. */
export function podDataDir(rootDir: string, uid: string): string {
  return joinInside(rootDir, 'metadata.uid', 'pods', uid)
}

/** `<rootDir>/pods/<uid>/containers/<name>`: where the container's termination-message files live. */
export function containerDataDir(rootDir: string, uid: string, containerName: string): string {
  return joinInside(podDataDir(rootDir, uid), 'container name', 'containers', containerName)
}

/** `<rootDir>/pods/<uid>/volumes/kubernetes.io~empty-dir/<volumeName>`, as the kubelet names it. */
export function emptyDirPath(rootDir: string, uid: string, volumeName: string): string {
  return volumePath(rootDir, uid, 'kubernetes.io~empty-dir', volumeName)
}

/** `<rootDir>/pods/<uid>/volumes`: where every volume the kubelet manages for the pod lives. */
export function podVolumesDir(rootDir: string, uid: string): string {
  return joinInside(podDataDir(rootDir, uid), 'volumes', 'volumes')
}

function volumePath(rootDir: string, uid: string, plugin: string, volumeName: string): string {
  return joinInside(podVolumesDir(rootDir, uid), 'volume name', plugin, volumeName)
}

/** `<rootDir>/pods/<uid>/volumes/kubernetes.io~configmap/<volumeName>`. */
export function configMapVolumePath(rootDir: string, uid: string, volumeName: string): string {
  return volumePath(rootDir, uid, 'kubernetes.io~configmap', volumeName)
}

/** `<rootDir>/pods/<uid>/volumes/kubernetes.io~secret/<volumeName>`. */
export function secretVolumePath(rootDir: string, uid: string, volumeName: string): string {
  return volumePath(rootDir, uid, 'kubernetes.io~secret', volumeName)
}

/** `<rootDir>/pods/<uid>/volumes/kubernetes.io~downward-api/<volumeName>`. */
export function downwardAPIVolumePath(rootDir: string, uid: string, volumeName: string): string {
  return volumePath(rootDir, uid, 'kubernetes.io~downward-api', volumeName)
}

/** `<rootDir>/pods/<uid>/volumes/kubernetes.io~projected/<volumeName>`. */
export function projectedVolumePath(rootDir: string, uid: string, volumeName: string): string {
  return volumePath(rootDir, uid, 'kubernetes.io~projected', volumeName)
}
