// `kube-node top pods` on a real containerd: a container that burns CPU (capped at 300m by its
// limit) shows a rate near its cap and an idle one near 0, in kubectl top's columns, per pod and
// per container, and as a metrics.k8s.io PodMetricsList with -o json; an unknown pod is exit 1.
// Runs as its own node ("top").
import {afterAll, describe, expect, it} from 'vitest'
import {BUSYBOX, eventually, makeDirs, writeManifest, type Result, knAs} from './support.js'

const NODE = 'top'
const dirs = makeDirs()
const kn = (rest: string[]): Promise<Result> => knAs(NODE, dirs, rest)

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: burner
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: burn
    image: ${BUSYBOX}
    command: ["sh", "-c", "while true; do :; done"]
    resources:
      limits: {cpu: 300m, memory: 64Mi}
  - name: idle
    image: ${BUSYBOX}
    command: ["sleep", "3600"]
`

interface PodMetricsList {
  kind: string
  apiVersion: string
  items: {metadata: {name: string; namespace: string}; window: string; containers: {name: string; usage: {cpu: string; memory: string}}[]}[]
}

const millicores = (cell: string): number => Number(/^(\d+)m$/.exec(cell)?.[1] ?? NaN)

describe('kube-node top pods (real containerd)', () => {
  afterAll(async () => {
    await kn(['down', '--all'])
    dirs.cleanup()
  })

  it("shows a busy pod's CPU and memory in kubectl top's columns, per pod, per container and as JSON", async () => {
    const manifest = writeManifest(dirs.work, 'burner.yaml', POD)
    const run = await kn(['run', '-f', manifest, '--wait', 'running'])
    expect(run.code, run.stderr).toBe(0)

    // Per pod: NAME, CPU(cores), MEMORY(bytes); the burner's cap is 300m, so well above idle.
    const table = await eventually(async () => {
      const r = await kn(['top', 'pods'])
      if (r.code !== 0) return undefined
      const row = r.stdout.split('\n').find((l) => l.startsWith(`burner-${NODE} `))
      return row && millicores(row.trim().split(/\s+/)[1] ?? '') >= 100 ? r.stdout : undefined
    }, 30_000, 'top pods showing the burner busy')
    const [header, row] = table.trimEnd().split('\n')
    expect(header!.split(/\s+/)).toEqual(['NAME', 'CPU(cores)', 'MEMORY(bytes)'])
    const [name, cpu, memory] = row!.trim().split(/\s+/)
    expect(name).toBe(`burner-${NODE}`)
    expect(millicores(cpu!)).toBeLessThanOrEqual(400)
    expect(memory).toMatch(/^\d+Mi$/)

    // Per container: POD, NAME, CPU(cores), MEMORY(bytes); the idle container is near 0.
    const byContainer = await kn(['top', 'pods', 'burner', '--containers'])
    expect(byContainer.code, byContainer.stderr).toBe(0)
    const lines = byContainer.stdout.trimEnd().split('\n').map((l) => l.trim().split(/\s+/))
    expect(lines[0]).toEqual(['POD', 'NAME', 'CPU(cores)', 'MEMORY(bytes)'])
    expect(lines.slice(1).map((l) => [l[0], l[1]])).toEqual([[`burner-${NODE}`, 'burn'], [`burner-${NODE}`, 'idle']])
    expect(millicores(lines[1]![2]!)).toBeGreaterThanOrEqual(100)
    expect(millicores(lines[2]![2]!)).toBeLessThan(20)

    // -o json: only the PodMetricsList on stdout.
    const json = await kn(['top', 'pods', 'burner', '-o', 'json'])
    expect(json.code, json.stderr).toBe(0)
    const list = JSON.parse(json.stdout) as PodMetricsList
    expect(list).toMatchObject({kind: 'PodMetricsList', apiVersion: 'metrics.k8s.io/v1beta1'})
    expect(list.items.map((i) => i.metadata)).toEqual([{name: `burner-${NODE}`, namespace: 'default'}])
    const burn = list.items[0]!.containers.find((c) => c.name === 'burn')!
    expect(Number(/^(\d+)n$/.exec(burn.usage.cpu)?.[1])).toBeGreaterThan(100e6)
    expect(burn.usage.memory).toMatch(/^\d+(Ki|Mi)?$/)
  }, 120_000)

  it('a pod that does not exist is exit 1 with one sentence naming it', async () => {
    const r = await kn(['top', 'pods', 'nope'])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/pod "nope" not found/)
  })
})
