// securityContext.fsGroup on a real containerd: a pod running as user 1000 with fsGroup 2000
// sees its emptyDir and configMap volumes owned by group 2000, with the kubelet's modes (setgid
// directories, group-writable emptyDir, group-readable configMap files), has 2000 among its
// groups, and can write into the emptyDir, where new files inherit the group (checked with
// `kube-node logs`). Runs as its own node ("fsgroup").
import {mkdirSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {BUSYBOX, makeDirs, writeManifest, type Result, knAs} from './support.js'

const NODE = 'fsgroup'
const dirs = makeDirs()
mkdirSync(dirs.work, {recursive: true})

const kn = (rest: string[]): Promise<Result> => knAs(NODE, dirs, rest)

const SCRIPT = [
  'id',
  "stat -c 'scratch %g %a' /scratch",
  "stat -c 'conf %g %a' /conf",
  "stat -c 'conf-file %g %a' /conf/..data/app.conf",
  'echo written > /scratch/new',
  "stat -c 'new %u %g %a' /scratch/new",
].join('; ')

const MANIFEST = `apiVersion: v1
kind: Pod
metadata:
  name: owned
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  securityContext:
    runAsUser: 1000
    fsGroup: 2000
  containers:
  - name: app
    image: ${BUSYBOX}
    command: ["sh", "-c", ${JSON.stringify(SCRIPT)}]
    volumeMounts:
    - {name: scratch, mountPath: /scratch}
    - {name: conf, mountPath: /conf}
  volumes:
  - name: scratch
    emptyDir: {}
  - name: conf
    configMap: {name: app-config}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  app.conf: "port=80"
`

describe('fsGroup on containerd', () => {
  afterEach(async () => {
    await kn(['down', '--all'])
  })
  afterAll(() => dirs.cleanup())

  it('gives emptyDir and configMap volumes to the group, and the non-root user writes into the emptyDir', async () => {
    const file = writeManifest(dirs.work, 'owned.yaml', MANIFEST)
    const run = await kn(['run', '-f', file, '--wait', 'running', '--timeout', '90s'])
    expect(run.code, run.stderr).toBe(0)
    const logs = await kn(['logs', 'owned', '-c', 'app'])
    expect(logs.code, logs.stderr).toBe(0)
    const lines = logs.stdout.split('\n').filter(Boolean)
    expect(lines[0]).toMatch(/^uid=1000 .*groups=.*\b2000\b/)
    expect(lines.slice(1)).toEqual([
      // As on a kubelet: rwx for the group and the setgid bit on the emptyDir.
      'scratch 2000 2777',
      // Read-only data: group r-x and setgid on the directory, group r on the files.
      'conf 2000 2755',
      'conf-file 2000 644',
      // Written by user 1000; the group comes from the setgid directory.
      'new 1000 2000 644',
    ])
  })

  it('a link and a FIFO an init container planted in the emptyDir are not followed when the next container starts', async () => {
    const hostFile = join(dirs.work, 'host-file')
    writeFileSync(hostFile, 'host\n', {mode: 0o600})
    const plant = `ln -s ${hostFile} /scratch/link; ln -s ${dirs.work} /scratch/dir-link; mkfifo /scratch/fifo`
    const manifest = MANIFEST.replace('  containers:\n', `  initContainers:
  - name: plant
    image: ${BUSYBOX}
    securityContext: {runAsUser: 0}
    command: ["sh", "-c", ${JSON.stringify(plant)}]
    volumeMounts:
    - {name: scratch, mountPath: /scratch}
  containers:
`)
    const file = writeManifest(dirs.work, 'planted.yaml', manifest.replace('name: owned', 'name: planted'))
    const run = await kn(['run', '-f', file, '--wait', 'running', '--timeout', '90s'])
    expect(run.code, run.stderr).toBe(0)
    const logs = await kn(['logs', 'planted', '-c', 'app'])
    expect(logs.stdout).toContain('scratch 2000 2777')
    // The host file and directory the links name keep their group and mode.
    expect(statSync(hostFile).gid).toBe(0)
    expect((statSync(hostFile).mode & 0o7777).toString(8)).toBe('600')
    expect(statSync(dirs.work).gid).toBe(0)
  })
})
