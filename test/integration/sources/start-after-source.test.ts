// Under `watch`, a start-after naming an unknown pod or forming a cycle is reported like any
// manifest problem, and the pod stays (a running one keeps running; a new one waits, unstarted).
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {createFileSource} from '../../../src/sources/file-source.js'
import {nodeHostFs} from '../../../src/host/node-host-fs.js'
import type {ManifestSource} from '../../../src/sources/types.js'
import {silentLogger} from '../../../src/util/logger.js'
import {collect, NODE, podYaml, summary} from '../../unit/sources/helpers.js'

let dir: string
let src: ManifestSource | undefined

beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'kube-node-start-after-'))))
afterEach(async () => {
  await src?.stop()
  await rm(dir, {recursive: true, force: true})
})

const after = (name: string, startAfter: string): string => podYaml(name).replace(`name: ${name}\n`, `name: ${name}\n  annotations:\n    kube-node.io/start-after: "${startAfter}"\n`)

describe('file source with start-after', () => {
  it('reports an unknown name and a cycle, keeps the pods, and clears the issue once fixed', async () => {
    await writeFile(join(dir, 'api.yaml'), after('api', 'etcd'))
    src = createFileSource({path: dir, nodeName: NODE, checkFrequencyMs: 60_000, logger: silentLogger, debounceMs: 30, fs: nodeHostFs})
    const c = collect(src)
    const unknown = await c.waitFor(() => true, 'at all')
    expect(unknown.pods[0]?.pod.metadata.annotations?.['kube-node.io/start-after']).toBe('etcd')
    expect(summary(unknown)).toEqual({pods: {api: 'nginx:1.27'}, issues: [expect.stringMatching(/^api\.yaml \[0\] metadata\.annotations\["kube-node\.io\/start-after"\]: names "etcd", which no manifest defines/)]})

    await writeFile(join(dir, 'etcd.yaml'), after('etcd', 'api'))
    const cycle = await c.waitFor((s) => s.pods.length === 2, 'with etcd')
    expect(summary(cycle).issues).toEqual([expect.stringMatching(/api\.yaml .*forms a cycle: api → etcd → api/), expect.stringMatching(/etcd\.yaml .*forms a cycle: etcd → api → etcd/)])

    await writeFile(join(dir, 'etcd.yaml'), podYaml('etcd'))
    const fixed = await c.waitFor((s) => s.issues.length === 0, 'without issues')
    expect(fixed.pods.find((p) => p.manifestName === 'api')?.startAfter).toEqual(['etcd'])
  })
})
