// The API's pods are `get pods`'s pods (one truth): run a pod over the fake CRI, then read it
// through the API and through getPods, and compare.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {FakeRuntime} from '../../../support/fake-runtime.js'
import {FakeClock} from '../../../support/fake-clock.js'
import {createNode, type KubeNode} from '../../../../src/node/create-node.js'
import {runPods} from '../../../../src/services/run.js'
import {getPods} from '../../../../src/services/get.js'
import {kubeApiData} from '../../../../src/services/watch/kube-api-data.js'
import {createKubeApi, type KubeApi} from '../../../../src/server/kube-api/handler.js'
import {startServer, type RunningServer} from '../../../../src/server/server.js'
import {silentLogger} from '../../../../src/util/logger.js'
import type {Pod} from '../../../../src/api/types.js'

const IMAGE = 'localhost:5000/busybox:latest'

/** The credential logs and events need. */
const TOKEN = 'node-test-token'
const AUTH = {headers: {authorization: `Bearer ${TOKEN}`}}

describe('the API over a node', () => {
  let work: string
  let node: KubeNode
  let api: KubeApi
  let server: RunningServer
  let base: string

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-api-int-'))
    const fake = new FakeRuntime({images: ['localhost:5000/pause:3.9'], pullable: [IMAGE]})
    const clock = new FakeClock(fake)
    node = await createNode(
      {nodeName: 'node1', rootDir: join(work, 'root'), podLogsDir: join(work, 'logs'), runtimeEndpoint: 'unix:///unused.sock', imageEndpoint: 'unix:///unused.sock', runtimeRequestTimeoutMs: 1000, resolvConf: '', clusterDNS: [], clusterDomain: 'cluster.local', parallelism: 4},
      silentLogger,
      {runtime: fake, clock},
    )
    const manifest = join(work, 'web.yaml')
    writeFileSync(manifest, `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: {app: web}\nspec:\n  containers:\n  - name: main\n    image: ${IMAGE}\n    command: ["sleep", "3600"]\n`)
    await runPods(node, [manifest], {wait: 'running', timeoutMs: 60_000})
    api = createKubeApi({data: kubeApiData(node, '0.1.0'), logger: silentLogger, now: () => clock.now(), sleep: (ms) => clock.sleep(ms), credential: TOKEN})
    server = await startServer({address: '127.0.0.1', port: 'ephemeral', healthzPort: 0, handlers: {pods: () => ({}), healthz: () => ({ok: true}), metrics: async () => '', kubeApi: api}, logger: silentLogger})
    base = `http://127.0.0.1:${server.port}`
  })

  afterEach(async () => {
    api.close()
    await server.close()
    node.close()
    rmSync(work, {recursive: true, force: true})
  })

  it('serves the status `get pods` shows, with API metadata added', async () => {
    const ours = (await getPods(node)).items[0]!
    const served = (await (await fetch(`${base}/api/v1/namespaces/default/pods/web-node1`)).json()) as Pod
    expect(served.status).toEqual(ours.status)
    expect(served.metadata?.uid).toBe(ours.metadata?.uid)
    expect(served.metadata?.annotations).toEqual(ours.metadata?.annotations)
    expect(served.metadata?.resourceVersion).toMatch(/^\d+$/)
    expect(served.metadata?.creationTimestamp).toBe(ours.status?.startTime)
    const listed = (await (await fetch(`${base}/api/v1/pods?labelSelector=app%3Dweb&fieldSelector=spec.nodeName%3Dnode1`)).json()) as {items: Pod[]}
    expect(listed.items.map((p) => p.metadata?.name)).toEqual(['web-node1'])
    const other = (await (await fetch(`${base}/api/v1/namespaces/kube-system/pods`)).json()) as {items: Pod[]}
    expect(other.items).toEqual([])
  })

  it('answers 404 for a pod of another namespace, for its log too', async () => {
    const res = await fetch(`${base}/api/v1/namespaces/other/pods/web-node1/log`, AUTH)
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({kind: 'Status', reason: 'NotFound', message: 'pods "web-node1" not found'})
  })

  it('lists the events the node recorded for the pod', async () => {
    await node.events.flush()
    const events = (await (await fetch(`${base}/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dweb-node1`, AUTH)).json()) as {items: Array<{reason: string}>}
    expect(events.items.map((e) => e.reason)).toContain('Started')
  })
})
