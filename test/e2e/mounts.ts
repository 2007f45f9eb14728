// The host's mount table, for tests that check where kube-node put a volume: the tmpfs mounts
// under a root dir, as /proc/self/mountinfo lists them (the test runs in kube-node's mount
// namespace, the host's).
import {readFileSync, realpathSync} from 'node:fs'

export interface Mount {
  path: string
  fsType: string
  /** The file system's own options, e.g. `rw,size=8192k`. */
  superOptions: string
}

// mountinfo escapes space, tab, newline and backslash as octal.
const unescape = (p: string): string => p.replace(/\\([0-7]{3})/g, (_m, oct: string) => String.fromCharCode(parseInt(oct, 8)))

/** Every mount at or under `dir` (resolved as the kernel reports it), sorted by path. */
export function mountsUnder(dir: string): Mount[] {
  let real: string
  try {
    real = realpathSync(dir)
  } catch {
    return []
  }
  const out: Mount[] = []
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const [left = '', right = ''] = line.split(' - ')
    const path = unescape(left.split(' ')[4] ?? '')
    const [fsType = '', , superOptions = ''] = right.split(' ')
    if (path === real || path.startsWith(`${real}/`)) out.push({path, fsType, superOptions})
  }
  return out.sort((a, b) => a.path.localeCompare(b.path))
}

/**
 * A pod with a Secret mounted as a secret volume, a projected volume (secret and downward API)
 * and an emptyDir of medium Memory limited to 8Mi, and the Secret itself in the same file.
 */
export function memoryVolumesYaml(name: string, image: string): string {
  return `apiVersion: v1
kind: Secret
metadata: {name: ${name}-creds}
stringData: {password: s3cr3t}
---
apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  terminationGracePeriodSeconds: 1
  volumes:
  - {name: sec, secret: {secretName: ${name}-creds}}
  - name: proj
    projected:
      sources:
      - secret: {name: ${name}-creds}
      - downwardAPI: {items: [{path: podname, fieldRef: {fieldPath: metadata.name}}]}
  - {name: mem, emptyDir: {medium: Memory, sizeLimit: 8Mi}}
  containers:
  - name: main
    image: ${image}
    command: [sh, -c, "while true; do sleep 1; done"]
    volumeMounts:
    - {name: sec, mountPath: /sec}
    - {name: proj, mountPath: /proj}
    - {name: mem, mountPath: /mem}
`
}

/** The three volumes of memoryVolumesYaml as tmpfs mounts under the pod dir (paths relative to `pods/<uid>/volumes/`). */
export function memoryVolumeMounts(rootDir: string): {volume: string; fsType: string; size: string | undefined}[] {
  return mountsUnder(rootDir)
    .map((m) => ({volume: m.path.replace(/^.*\/pods\/[^/]+\/volumes\//, ''), fsType: m.fsType, size: /(?:^|,)size=([^,]+)/.exec(m.superOptions)?.[1]}))
    .sort((a, b) => a.volume.localeCompare(b.volume))
}
