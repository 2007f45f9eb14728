// Ordered bring-up on a real containerd: a pod with `kube-node.io/start-after` is created only
// once the pod it names is Ready (a readiness probe that turns true after a delay).
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {BUSYBOX, NODE, eventually, getPods, kn, makeDirs, readyAfterYaml, watchSuite, writeManifest} from './support.js'

const dirs = makeDirs()
const suite = watchSuite()
const READY_AFTER_S = 4

const first = readyAfterYaml('order-db', READY_AFTER_S)
const second = `apiVersion: v1
kind: Pod
metadata:
  name: order-app
  annotations:
    kube-node.io/start-after: "order-db"
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: ["sh", "-c", "while true; do sleep 1; done"]
`

interface PodJson {
  metadata: {name: string}
  status: {conditions?: {type: string; status: string; lastTransitionTime?: string}[]; containerStatuses?: {state: {running?: {startedAt: string}}}[]}
}

describe('start-after (real containerd)', () => {
  beforeAll(async () => void (await kn(dirs, ['down', '--all'])))
  afterEach(async () => void (await kn(dirs, ['down', '--all'])))
  afterAll(() => dirs.cleanup())

  it('run starts the second pod only after the first is Ready, and plan shows the wait', async () => {
    // The dependent is listed first: the order comes from the annotation, not the arguments.
    const files = [writeManifest(dirs.work, 'app.yaml', second), writeManifest(dirs.work, 'db.yaml', first)]
    const plan = await kn(dirs, ['plan', ...files.flatMap((f) => ['-f', f])])
    expect(plan.code, plan.stderr).toBe(0)
    expect(plan.stdout).toMatch(new RegExp(`order-db-${NODE}[\\s\\S]*order-app-${NODE}\\s+waits for "order-db" to be Ready \\(kube-node.io/start-after\\), then:`))

    const r = await kn(dirs, ['run', '--wait', 'running', '--timeout', '60s', ...files.flatMap((f) => ['-f', f])])
    expect(r.code, r.stderr + r.stdout).toBe(0)
    const got = await kn(dirs, ['get', 'pods', '-o', 'json'])
    const pods = (JSON.parse(got.stdout) as {items: PodJson[]}).items
    const db = pods.find((p) => p.metadata.name === `order-db-${NODE}`)!
    const app = pods.find((p) => p.metadata.name === `order-app-${NODE}`)!
    const dbStarted = Date.parse(db.status.containerStatuses![0]!.state.running!.startedAt)
    const dbReady = Date.parse(db.status.conditions!.find((c) => c.type === 'Ready')!.lastTransitionTime!)
    const appStarted = Date.parse(app.status.containerStatuses![0]!.state.running!.startedAt)
    // The app's container started after the db became Ready, which took the probe's delay.
    expect(dbReady - dbStarted).toBeGreaterThanOrEqual((READY_AFTER_S - 1) * 1000)
    expect(appStarted).toBeGreaterThanOrEqual(dbReady)
  })

  it('a start-after naming no manifest is invalid input: exit 2, naming file, document and field', async () => {
    const file = writeManifest(dirs.work, 'lonely.yaml', second)
    const r = await kn(dirs, ['run', '-f', file])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${file}, document 0, field metadata.annotations["kube-node.io/start-after"]: names "order-db", which no manifest defines`)
  })
})

describe('start-after under watch (real containerd)', () => {
  it('holds the second pod, Pending with the reason, until the first is Ready', async () => {
    writeManifest(suite.manifests, 'app.yaml', second)
    writeManifest(suite.manifests, 'db.yaml', first)
    await suite.watch()
    // While the db is not Ready, the app exists only as a desired pod: no sandbox, no container.
    const held = await eventually(async () => {
      const pods = await getPods(suite.dirs)
      const db = pods.find((p) => p.metadata.name === `order-db-${NODE}`)
      return db?.status.containerStatuses?.[0]?.state['running'] ? pods : undefined
    }, 60_000, 'the db running')
    const waiting = held.find((p) => p.metadata.name === `order-app-${NODE}`)
    expect(waiting?.status.containerStatuses?.[0]?.containerID).toBeUndefined()
    expect((waiting?.status as {message?: string} | undefined)?.message).toMatch(/^waits for pod "order-db" to be Ready \(start-after\)/)
    const app = await eventually(async () => {
      const pods = await getPods(suite.dirs)
      const a = pods.find((p) => p.metadata.name === `order-app-${NODE}`)
      return a?.status.containerStatuses?.[0]?.state['running'] ? a : undefined
    }, 60_000, 'the app running')
    expect(app.status.phase).toBe('Running')
  })
})
