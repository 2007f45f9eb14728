// Pod-level resources (spec.resources) on a real containerd: requests are honoured (the pod runs
// with QoS class Burstable from them, and admission rejects one whose pod-level cpu request the
// node cannot hold, though its containers ask for little); limits are refused before any CRI call,
// since kube-node creates no pod cgroup to enforce them. Runs as its own node ("podres").
import {mkdirSync} from 'node:fs'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {BUSYBOX, makeDirs, writeManifest, type Result, knAs} from './support.js'

const NODE = 'podres'
const dirs = makeDirs()
mkdirSync(dirs.work, {recursive: true})

const kn = (rest: string[]): Promise<Result> => knAs(NODE, dirs, rest)

function podYaml(name: string, resources: string): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  terminationGracePeriodSeconds: 1
  resources:
${resources}  containers:
  - name: app
    image: ${BUSYBOX}
    command: ["sleep", "3600"]
    resources:
      requests: {cpu: 10m, memory: 8Mi}
`
}

describe('pod-level resources on containerd', () => {
  afterEach(async () => {
    await kn(['down', '--all'])
  })
  afterAll(() => dirs.cleanup())

  it('pod-level requests: the pod runs, Burstable by its pod-level resources', async () => {
    const file = writeManifest(dirs.work, 'req.yaml', podYaml('req', '    requests: {cpu: 50m, memory: 32Mi}\n'))
    const run = await kn(['run', '-f', file, '--wait', 'running', '--timeout', '60s'])
    expect(run.code, run.stderr).toBe(0)
    const get = await kn(['get', 'pods', 'req', '-o', 'json'])
    const pod = JSON.parse(get.stdout) as {status: {qosClass?: string; phase?: string}; items?: {status: {qosClass?: string; phase?: string}}[]}
    const status = pod.items?.[0]?.status ?? pod.status
    expect(status.phase).toBe('Running')
    expect(status.qosClass).toBe('Burstable')
  })

  it('a pod-level cpu request beyond the node is rejected by admission (OutOfcpu)', async () => {
    const file = writeManifest(dirs.work, 'big.yaml', podYaml('big', '    requests: {cpu: "100000"}\n'))
    const run = await kn(['run', '-f', file, '--wait', 'running', '--timeout', '30s'])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain('OutOfcpu')
  })

  it('pod-level limits are refused with the reason, exit 2', async () => {
    const file = writeManifest(dirs.work, 'lim.yaml', podYaml('lim', '    limits: {memory: 64Mi}\n'))
    const run = await kn(['run', '-f', file, '--wait', 'running', '--timeout', '30s'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('spec.resources.limits: is not supported: pod-level limits are enforced on the pod\'s cgroup, which kube-node does not create')
  })
})
