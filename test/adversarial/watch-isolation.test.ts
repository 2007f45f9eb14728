// One bad pod never blocks another: under a real `kube-node watch`, a directory holding good
// pods beside a parser bomb, a pod with an absurd quantity and a pod admission must reject still
// gets every good pod Running, applies edits and removals as usual, and /healthz answers within
// a second all along.
import {mkdirSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {spawnSync} from 'node:child_process'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {eventually, makeDirs, podYaml} from '../e2e/support.js'
import {argsAs, startWatchAs, type Watch} from './support/daemon.js'
import {healthz} from './support/raw-http.js'

const NODE = 'adv-isolation'
const dirs = makeDirs()
const manifests = join(dirs.work, 'manifests')

interface PodItem {
  metadata: {name: string; annotations?: Record<string, string>}
  spec: {containers: Array<{command?: string[]}>}
  status: {phase: string; reason?: string}
}

async function pods(port: number): Promise<PodItem[]> {
  const res = await fetch(`http://127.0.0.1:${port}/pods`, {signal: AbortSignal.timeout(5000)})
  return ((await res.json()) as {items: PodItem[]}).items
}

const hostPortPod = (name: string): string =>
  podYaml(name).replace('  - name: main\n', '  - name: main\n    ports: [{containerPort: 80, hostPort: 18481}]\n')

describe('watch: one bad pod never blocks another (real containerd)', () => {
  let watch: Watch
  let worstHealthzMs = 0
  let polling = true
  let poller: Promise<void>

  beforeAll(async () => {
    mkdirSync(manifests, {recursive: true})
    for (const n of ['good-a', 'good-b', 'good-c']) writeFileSync(join(manifests, `${n}.yaml`), podYaml(n))
    writeFileSync(join(manifests, 'bomb.yaml'), '['.repeat(5 * 1024 * 1024))
    writeFileSync(join(manifests, 'quantity.yaml'), podYaml('quantity').replace('  - name: main\n', '  - name: main\n    resources: {limits: {cpu: "1e400"}}\n'))
    writeFileSync(join(manifests, 'port-1.yaml'), hostPortPod('port-1'))
    writeFileSync(join(manifests, 'port-2.yaml'), hostPortPod('port-2'))
    watch = await startWatchAs(NODE, dirs, manifests)
    await eventually(() => healthz(watch.port).then((h) => (h.status === 200 ? true : undefined)), 30_000, 'watch to answer')
    poller = (async () => {
      while (polling) {
        const h = await healthz(watch.port).catch(() => ({status: 0, ms: 5000}))
        worstHealthzMs = Math.max(worstHealthzMs, h.status === 200 ? h.ms : 5000)
        await new Promise((r) => setTimeout(r, 100))
      }
    })()
  })

  afterAll(async () => {
    polling = false
    await poller
    await watch.stop()
    spawnSync(process.execPath, argsAs(NODE, dirs, ['down', '--all']))
    dirs.cleanup()
  })

  it('starts every good pod; the bad ones are refused alone', async () => {
    const running = await eventually(async () => {
      const list = await pods(watch.port)
      const ok = ['good-a', 'good-b', 'good-c'].every((n) => list.some((p) => p.metadata.name === `${n}-${NODE}` && p.status.phase === 'Running'))
      // The two port pods have both been decided (admitted and started, or refused).
      const ports = list.filter((p) => p.metadata.name.startsWith('port-'))
      const decided = ports.length === 2 && ports.every((p) => p.status.phase !== 'Pending')
      return ok && decided ? list : undefined
    }, 60_000, 'the good pods to run and the port pods to be decided')
    const names = running.map((p) => p.metadata.name)
    expect(names).not.toContain(`quantity-${NODE}`)
    // The two pods share a host port: admission takes the first and fails the second, alone.
    const ports = running.filter((p) => p.metadata.name.startsWith('port-'))
    expect(ports.map((p) => p.status.phase).sort()).toEqual(['Failed', 'Running'])
    expect(watch.stderr()).toMatch(/bomb\.yaml.*nests \[ and \{ deeper than 100/)
    expect(watch.stderr()).toMatch(/quantity\.yaml.*cpu.*exponent/)
    expect(watch.exited()).toBe(false)
  })

  it('still applies an edit and a removal of good pods', async () => {
    writeFileSync(join(manifests, 'good-a.yaml'), podYaml('good-a', {command: 'echo edited; while true; do sleep 1; done'}))
    rmSync(join(manifests, 'good-b.yaml'))
    await eventually(async () => {
      const list = await pods(watch.port)
      const a = list.find((p) => p.metadata.name === `good-a-${NODE}`)
      const edited = a?.spec.containers[0]?.command?.join(' ').includes('edited') && a.status.phase === 'Running'
      const removed = !list.some((p) => p.metadata.name === `good-b-${NODE}`)
      return edited && removed ? true : undefined
    }, 60_000, 'the edit and the removal')
  })

  it('answered /healthz within a second throughout', () => {
    console.log(`worst /healthz latency under watch with bad manifests: ${Math.round(worstHealthzMs)} ms`)
    expect(worstHealthzMs).toBeLessThan(1000)
  })
})
