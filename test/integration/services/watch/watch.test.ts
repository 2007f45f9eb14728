// watchPods end to end in process, over the fake CRI: it converges a manifest directory, serves
// /healthz, /pods and /metrics, writes the API's address for `kubeconfig`, and on abort stops,
// removes that file and releases the root dir's lock. Proves the wiring of its steps (converge,
// serve, notify); timing and the API's answers are tested where they are decided.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {FakeRuntime} from '../../../support/fake-runtime.js'
import {createNode, type KubeNode} from '../../../../src/node/create-node.js'
import {acquireLock} from '../../../../src/node/lock.js'
import {API_ADDRESS_FILE} from '../../../../src/node/api-address.js'
import {createMetrics} from '../../../../src/metrics/metrics.js'
import {watchPods} from '../../../../src/services/watch/watch.js'
import {silentLogger} from '../../../../src/util/logger.js'
import {testNodeConfig} from '../../../support/node-config.js'

const IMAGE = 'localhost:5000/busybox:1.0'

describe('watchPods', () => {
  let work: string
  let node: KubeNode

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-watch-'))
    node = await createNode(testNodeConfig(work), silentLogger, {runtime: new FakeRuntime({images: [IMAGE]})})
  })
  afterEach(() => {
    node.close()
    rmSync(work, {recursive: true, force: true})
  })

  it('converges, serves, and on abort stops and releases what it held', async () => {
    const manifests = join(work, 'manifests')
    mkdirSync(manifests)
    writeFileSync(join(manifests, 'web.yaml'), `apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: main\n    image: "${IMAGE}"\n`)
    const abort = new AbortController()
    let ready: (port: number) => void = () => {}
    const port = new Promise<number>((resolve) => (ready = resolve))
    const watching = watchPods(node, {
      manifestDir: manifests,
      manifestUrls: [],
      manifestUrlHeaders: {},
      fileCheckFrequencyMs: 100,
      httpCheckFrequencyMs: 100,
      resyncIntervalMs: 60_000,
      address: '127.0.0.1',
      port: 'ephemeral',
      healthzPort: 0,
      signal: abort.signal,
      metrics: createMetrics(),
      onReady: (info) => ready(info.port),
    })
    const base = `http://127.0.0.1:${await port}`
    let phase: string | undefined
    for (let i = 0; i < 100 && phase !== 'Running'; i++) {
      const list = (await (await fetch(`${base}/pods`)).json()) as {items: {metadata: {name: string}; status?: {phase?: string}}[]}
      phase = list.items.find((p) => p.metadata.name.startsWith('web'))?.status?.phase
      if (phase !== 'Running') await new Promise((r) => setTimeout(r, 50))
    }
    expect(phase).toBe('Running')
    expect((await fetch(`${base}/healthz`)).status).toBe(200)
    expect(await (await fetch(`${base}/metrics`)).text()).toMatch(/^kubelet_desired_pods{static="true"} 1$/m)
    expect(existsSync(join(node.config.rootDir, API_ADDRESS_FILE))).toBe(true)

    abort.abort()
    await watching
    expect(existsSync(join(node.config.rootDir, API_ADDRESS_FILE))).toBe(false)
    await expect(fetch(`${base}/healthz`)).rejects.toThrow()
    const lock = await acquireLock(node.config.rootDir)
    await lock.release()
  })
})
