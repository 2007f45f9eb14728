// Files are private: a pod's directory, its pod.json and its secret volume cannot be read by an
// unprivileged local user (checked as `nobody`), while the container itself reads its secret.
import {spawnSync} from 'node:child_process'
import {readdirSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {makeDirs, BUSYBOX} from '../e2e/support.js'
import {argsAs} from './support/daemon.js'

const NODE = 'adv-modes'
const dirs = makeDirs()
const isRoot = process.getuid?.() === 0

function kn(args: string[]): {code: number; stdout: string; stderr: string} {
  const r = spawnSync(process.execPath, argsAs(NODE, dirs, args), {encoding: 'utf8', env: {...process.env, NO_COLOR: '1'}})
  return {code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr}
}

/** Runs `cat` as nobody; true when it could read the file. */
function nobodyCanRead(path: string): boolean {
  return spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'cat', path], {encoding: 'utf8'}).status === 0
}

const MANIFEST = `apiVersion: v1
kind: Secret
metadata: {name: creds}
stringData: {token: top-secret-value}
---
apiVersion: v1
kind: Pod
metadata: {name: private}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: ["sh", "-c", "cat /creds/token > /scratch/seen; while true; do sleep 1; done"]
    volumeMounts:
    - {name: creds, mountPath: /creds}
    - {name: scratch, mountPath: /scratch}
  volumes:
  - {name: creds, secret: {secretName: creds}}
  - {name: scratch, emptyDir: {}}
`

describe.skipIf(!isRoot)('file modes (real containerd, checked as nobody)', () => {
  afterAll(() => {
    kn(['down', '--all'])
    dirs.cleanup()
  })

  it('root, pods/ and the pod dir are 0750; pod.json and the secret are unreadable by nobody', () => {
    const file = join(dirs.work, 'private.yaml')
    writeFileSync(file, MANIFEST)
    const r = kn(['run', '-f', file, '--timeout', '60s'])
    expect(r.code, r.stderr).toBe(0)
    const podsDir = join(dirs.rootDir, 'pods')
    const [uid] = readdirSync(podsDir)
    const podDir = join(podsDir, uid!)
    for (const d of [dirs.rootDir, podsDir, podDir]) expect((statSync(d).mode & 0o777).toString(8), d).toBe('750')
    const podJson = join(podDir, 'pod.json')
    expect(statSync(podJson).mode & 0o777).toBe(0o640)
    const secret = join(podDir, 'volumes/kubernetes.io~secret/creds/token')
    expect(nobodyCanRead(secret)).toBe(false)
    expect(nobodyCanRead(podJson)).toBe(false)
    expect(nobodyCanRead(join(podDir, 'volumes/kubernetes.io~empty-dir/scratch/seen'))).toBe(false)
    // Sanity: root reads it, so the check above is about permissions, not a wrong path.
    expect(spawnSync('cat', [secret], {encoding: 'utf8'}).stdout).toBe('top-secret-value')
  })

  it('a pod admission rejects gets no pod.json', () => {
    const file = join(dirs.work, 'rejected.yaml')
    writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata: {name: rejected}\nspec:\n  nodeSelector: {no-such-label: x}\n  containers: [{name: c, image: ${BUSYBOX}}]\n`)
    const r = kn(['run', '-f', file, '--timeout', '20s'])
    expect(r.code).toBe(1)
    const pods = readdirSync(join(dirs.rootDir, 'pods'))
    const jsons = pods.map((u) => spawnSync('cat', [join(dirs.rootDir, 'pods', u, 'pod.json')], {encoding: 'utf8'}).stdout)
    expect(jsons.some((j) => j.includes('"rejected"'))).toBe(false)
  })
})
