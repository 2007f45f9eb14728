// Container restart rules (restartPolicyRules) on a real containerd: in a pod whose restartPolicy
// is Never, a container whose rule says `In [42]` is started again after it exits 42 (restart
// count 1, last exit 42) and the pod then Succeeds; a container exiting 1, which no rule matches,
// stays stopped and the pod Fails. The container counts its runs in an emptyDir. Runs as its own
// node ("rules").
import {mkdirSync} from 'node:fs'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {BUSYBOX, makeDirs, writeManifest, type Result, knAs} from './support.js'

const NODE = 'rules'
const dirs = makeDirs()
mkdirSync(dirs.work, {recursive: true})

const kn = (rest: string[]): Promise<Result> => knAs(NODE, dirs, rest)

/** The first run exits `first`, every later run exits 0. */
function podYaml(name: string, first: number): string {
  const script = `n=$(cat /data/runs 2>/dev/null || echo 0); n=$((n+1)); echo $n > /data/runs; echo run $n; if [ $n -eq 1 ]; then exit ${first}; fi; exit 0`
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  containers:
  - name: job
    image: ${BUSYBOX}
    command: ["sh", "-c", ${JSON.stringify(script)}]
    restartPolicy: Never
    restartPolicyRules:
    - action: Restart
      exitCodes:
        operator: In
        values: [42]
    volumeMounts:
    - {name: data, mountPath: /data}
  volumes:
  - name: data
    emptyDir: {}
`
}

interface PodJson {
  status: {phase?: string; containerStatuses?: {restartCount: number; lastState?: {terminated?: {exitCode: number}}; state: {terminated?: {exitCode: number}}}[]}
}

async function podOf(name: string): Promise<PodJson> {
  const r = await kn(['get', 'pods', name, '-o', 'json'])
  expect(r.code, r.stderr).toBe(0)
  const out = JSON.parse(r.stdout) as PodJson & {items?: PodJson[]}
  return out.items?.[0] ?? out
}

describe('restartPolicyRules on containerd', () => {
  afterEach(async () => {
    await kn(['down', '--all'])
  })
  afterAll(() => dirs.cleanup())

  it('exit 42 matches the rule: the container runs again though the pod is Never, then the pod Succeeds', async () => {
    const file = writeManifest(dirs.work, 'retry.yaml', podYaml('retry', 42))
    const run = await kn(['run', '-f', file, '--wait', 'running', '--timeout', '90s'])
    expect(run.code, run.stderr).toBe(0)
    const pod = await podOf('retry')
    expect(pod.status.phase).toBe('Succeeded')
    const cs = pod.status.containerStatuses?.[0]
    expect(cs?.restartCount).toBe(1)
    expect(cs?.lastState?.terminated?.exitCode).toBe(42)
    expect(cs?.state.terminated?.exitCode).toBe(0)
    // The wide table shows the restart count too, as kubectl does.
    const table = await kn(['get', 'pods', 'retry'])
    expect(table.stdout).toMatch(/retry-rules\s+0\/1\s+Completed\s+1\b/)
  })

  it('exit 1 matches no rule: the container stays stopped and the pod Fails', async () => {
    const file = writeManifest(dirs.work, 'fail.yaml', podYaml('fail', 1))
    const run = await kn(['run', '-f', file, '--wait', 'running', '--timeout', '90s'])
    expect(run.code).not.toBe(0)
    const pod = await podOf('fail')
    expect(pod.status.phase).toBe('Failed')
    const cs = pod.status.containerStatuses?.[0]
    expect(cs?.restartCount).toBe(0)
    expect(cs?.state.terminated?.exitCode).toBe(1)
  })
})
