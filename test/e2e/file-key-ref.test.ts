// env[].valueFrom.fileKeyRef on a real containerd: an init container writes /data/config.env into
// an emptyDir, and the main container gets variables from it, as the kubelet gives them (checked
// with `kube-node logs`). A missing optional key leaves its variable unset; a missing required key
// gives that container the kubelet's CreateContainerConfigError; a planted symlink to a host file
// fails the container without reading the file. Runs as its own node ("filekey").
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {BUSYBOX, makeDirs, writeManifest, type Result, knAs} from './support.js'

const NODE = 'filekey'
const dirs = makeDirs()
mkdirSync(dirs.work, {recursive: true})

const kn = (rest: string[]): Promise<Result> => knAs(NODE, dirs, rest)

function podYaml(name: string, initScript: string, containers: string): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  initContainers:
  - name: write-env
    image: ${BUSYBOX}
    command: ["sh", "-c", ${JSON.stringify(initScript)}]
    volumeMounts:
    - {name: config, mountPath: /data}
  containers:
${containers}  volumes:
  - name: config
    emptyDir: {}
`
}

const WRITE = "printf 'DB_ADDRESS=db.example:5432\\n# a comment\\nGREETING=hello world\\nQUOTED=\"kept\"\\n' > /data/config.env"

interface ContainerStatus {
  name: string
  state: {running?: object; waiting?: {reason?: string; message?: string}; terminated?: {exitCode: number}}
}

async function statusOf(name: string): Promise<ContainerStatus[]> {
  const r = await kn(['get', 'pods', name, '-o', 'json'])
  expect(r.code, r.stderr).toBe(0)
  const pod = JSON.parse(r.stdout) as {items?: {status: {containerStatuses?: ContainerStatus[]}}[]; status?: {containerStatuses?: ContainerStatus[]}}
  return (pod.items?.[0]?.status ?? pod.status)?.containerStatuses ?? []
}

describe('fileKeyRef on containerd', () => {
  afterEach(async () => {
    await kn(['down', '--all'])
  })
  afterAll(() => dirs.cleanup())

  it('gives the main container the values the init container wrote; an optional missing key stays unset', async () => {
    const app = `  - name: app
    image: ${BUSYBOX}
    command: ["sh", "-c", "echo DB=$DB_ADDRESS; echo GREETING=$GREETING; echo QUOTED=$QUOTED; echo MAYBE=\${MAYBE-unset}"]
    env:
    - name: DB_ADDRESS
      valueFrom: {fileKeyRef: {volumeName: config, path: config.env, key: DB_ADDRESS}}
    - name: GREETING
      valueFrom: {fileKeyRef: {volumeName: config, path: config.env, key: GREETING, optional: false}}
    - name: QUOTED
      valueFrom: {fileKeyRef: {volumeName: config, path: config.env, key: QUOTED}}
    - name: MAYBE
      valueFrom: {fileKeyRef: {volumeName: config, path: config.env, key: NOT_THERE, optional: true}}
`
    const file = writeManifest(dirs.work, 'envfile.yaml', podYaml('envfile', WRITE, app))
    const run = await kn(['run', '-f', file, '--wait', 'running', '--timeout', '90s'])
    expect(run.code, run.stderr).toBe(0)
    const logs = await kn(['logs', 'envfile', '-c', 'app'])
    expect(logs.code, logs.stderr).toBe(0)
    expect(logs.stdout.split('\n').filter(Boolean)).toEqual(['DB=db.example:5432', 'GREETING=hello world', 'QUOTED="kept"', 'MAYBE=unset'])
  })

  it('a missing required key gives that container CreateContainerConfigError; its sibling runs', async () => {
    const containers = `  - name: strict
    image: ${BUSYBOX}
    command: ["sh", "-c", "echo NEEDED=$NEEDED"]
    env:
    - name: NEEDED
      valueFrom: {fileKeyRef: {volumeName: config, path: config.env, key: NOT_THERE}}
  - name: fine
    image: ${BUSYBOX}
    command: ["sh", "-c", "echo DB=$DB_ADDRESS; sleep 30"]
    env:
    - name: DB_ADDRESS
      valueFrom: {fileKeyRef: {volumeName: config, path: config.env, key: DB_ADDRESS}}
`
    const file = writeManifest(dirs.work, 'strict.yaml', podYaml('strict', WRITE, containers))
    const run = await kn(['run', '-f', file, '--wait', 'running', '--timeout', '90s'])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain('CreateContainerConfigError')
    expect(run.stderr).toContain('couldn\'t find key NOT_THERE in env file "config.env" in volume "config"')
    const statuses = await statusOf('strict')
    expect(statuses.find((s) => s.name === 'strict')?.state.waiting).toEqual({reason: 'CreateContainerConfigError', message: 'couldn\'t find key NOT_THERE in env file "config.env" in volume "config"'})
    expect(statuses.find((s) => s.name === 'fine')?.state.running).toBeDefined()
    const logs = await kn(['logs', 'strict', '-c', 'fine'])
    expect(logs.stdout).toContain('DB=db.example:5432')
  })

  it('an env file planted as a symlink to a host file is refused, and nothing of the file shows', async () => {
    const secret = join(dirs.work, 'host-secret.env')
    writeFileSync(secret, 'DB_ADDRESS=stolen-from-the-host\n')
    const containers = `  - name: app
    image: ${BUSYBOX}
    command: ["sh", "-c", "echo DB=$DB_ADDRESS"]
    env:
    - name: DB_ADDRESS
      valueFrom: {fileKeyRef: {volumeName: config, path: config.env, key: DB_ADDRESS, optional: true}}
`
    const file = writeManifest(dirs.work, 'planted.yaml', podYaml('planted', `ln -s ${secret} /data/config.env`, containers))
    const run = await kn(['run', '-f', file, '--wait', 'running', '--timeout', '90s'])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/CreateContainerConfigError: couldn't read env file for fileKeyRef "config.env" in volume "config": .*symbolic link/)
    expect(run.stderr + run.stdout).not.toContain('stolen-from-the-host')
  })
})
