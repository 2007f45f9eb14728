import {appendFile, mkdir, mkdtemp, rename, rm, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {createFileSource} from '../../../src/sources/file-source.js'
import {nodeHostFs} from '../../../src/host/node-host-fs.js'
import type {ManifestSource} from '../../../src/sources/types.js'
import type {Clock} from '../../../src/util/clock.js'
import {silentLogger, type Logger} from '../../../src/util/logger.js'
import {captureLogger, collect, NODE, podYaml, RelistClock, summary} from '../../unit/sources/helpers.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const RELIST_MS = 60_000

let dir: string
let sources: ManifestSource[]

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-node-sources-'))
  sources = []
})

afterEach(async () => {
  await Promise.all(sources.map((s) => s.stop()))
  await rm(dir, {recursive: true, force: true})
})

/** A source that reacts to file events only (the re-list is far away), unless told otherwise. */
function source(path: string, opts: {checkFrequencyMs?: number; logger?: Logger; clock?: Clock} = {}) {
  const s = createFileSource({
    path, nodeName: NODE, checkFrequencyMs: opts.checkFrequencyMs ?? RELIST_MS, logger: opts.logger ?? silentLogger, debounceMs: 30, fs: nodeHostFs,
    ...(opts.clock ? {clock: opts.clock} : {}),
  })
  sources.push(s)
  return collect(s)
}

describe('file source', () => {
  it('follows edits, breakage, fixes and removal of a manifest', async () => {
    const file = join(dir, 'web.yaml')
    await writeFile(file, podYaml('web'))
    const src = source(dir)
    const first = await src.waitFor((s) => s.pods.length === 1, 'with web')
    expect(summary(first)).toEqual({pods: {web: 'nginx:1.27'}, issues: []})
    expect(first.source).toBe(`file:${dir}`)
    expect(first.complete).toBe(true)
    expect(first.pods[0]?.source).toEqual({kind: 'file', location: file, document: 0})

    await writeFile(file, podYaml('web', 'nginx:1.28'))
    await src.waitFor((s) => s.pods[0]?.pod.spec.containers[0]?.image === 'nginx:1.28', 'with the new image')

    // Invalid YAML: the last good version stays, the problem is reported.
    await writeFile(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: web\n')
    const broken = await src.waitFor((s) => s.issues.length > 0, 'with an issue')
    expect(summary(broken).pods).toEqual({web: 'nginx:1.28'})
    expect(broken.issues[0]?.message).toMatch(/^invalid YAML/)
    expect(broken.complete).toBe(true)

    // A validation error is the same.
    await writeFile(file, podYaml('web', ''))
    const invalid = await src.waitFor((s) => s.issues.some((i) => i.field.includes('image')), 'with an image issue')
    expect(summary(invalid).pods).toEqual({web: 'nginx:1.28'})

    await writeFile(file, podYaml('web', 'nginx:1.29'))
    const fixed = await src.waitFor((s) => s.issues.length === 0, 'without issues')
    expect(summary(fixed).pods).toEqual({web: 'nginx:1.29'})

    await rm(file)
    await src.waitFor((s) => s.pods.length === 0, 'without pods')
  })

  it('never turns editor swap files, backups or other extensions into pods', async () => {
    await writeFile(join(dir, 'web.yaml'), podYaml('web'))
    const src = source(dir)
    await src.waitFor((s) => s.pods.length === 1, 'with web')
    await writeFile(join(dir, '.web.yaml.swp'), podYaml('swap'))
    await writeFile(join(dir, 'web.yaml~'), podYaml('backup'))
    await writeFile(join(dir, 'x.txt'), podYaml('text'))
    await writeFile(join(dir, 'api.json'), JSON.stringify({apiVersion: 'v1', kind: 'Pod', metadata: {name: 'api'}, spec: {containers: [{name: 'a', image: 'api:1'}]}}))
    const last = await src.waitFor((s) => s.pods.length === 2, 'with web and api')
    expect(summary(last)).toEqual({pods: {api: 'api:1', web: 'nginx:1.27'}, issues: []})
  })

  it('keeps the first of two files defining the same pod and names both', async () => {
    await writeFile(join(dir, 'a.yaml'), podYaml('web', 'nginx:a'))
    await writeFile(join(dir, 'b.yaml'), podYaml('web', 'nginx:b'))
    const src = source(dir)
    const snap = await src.waitFor(() => true, 'at all')
    expect(summary(snap)).toEqual({
      pods: {web: 'nginx:a'},
      issues: [`b.yaml [0] metadata.name: duplicate pod "default/web": also defined in ${join(dir, 'a.yaml')}, document 0; that one is used`],
    })
  })

  it('sends an empty snapshot for a missing directory and picks it up once it exists', async () => {
    const {logger, lines} = captureLogger()
    const clock = new RelistClock(RELIST_MS)
    const missing = join(dir, 'manifests')
    const src = source(missing, {logger, clock})
    const first = await src.waitFor(() => true, 'at all')
    expect(first).toMatchObject({pods: [], issues: [], complete: true})
    await clock.relist()
    await clock.relist()
    expect(lines.filter((l) => l.includes('path does not exist'))).toHaveLength(1)
    expect(src.snapshots).toHaveLength(1)

    await mkdir(missing)
    await writeFile(join(missing, 'web.yaml'), podYaml('web'))
    await clock.relist()
    await src.waitFor((s) => s.pods.length === 1, 'with web')
    // From now on the directory is watched: an edit arrives without a re-list.
    await writeFile(join(missing, 'api.yaml'), podYaml('api'))
    await src.waitFor((s) => s.pods.length === 2, 'with web and api')
  })

  it('watches again when the directory is removed and created again', async () => {
    const clock = new RelistClock(RELIST_MS)
    const manifests = join(dir, 'manifests')
    await mkdir(manifests)
    await writeFile(join(manifests, 'web.yaml'), podYaml('web'))
    const src = source(manifests, {clock})
    await src.waitFor((s) => s.pods.length === 1, 'with web')
    await rm(manifests, {recursive: true})
    await src.waitFor((s) => s.pods.length === 0, 'without pods')
    await mkdir(manifests)
    await clock.relist()
    await writeFile(join(manifests, 'api.yaml'), podYaml('api'))
    await src.waitFor((s) => s.pods.length === 1, 'with api')
  })

  it('finds a change no event reported at the next re-list (a symlinked manifest)', async () => {
    const clock = new RelistClock(RELIST_MS)
    const manifests = join(dir, 'manifests')
    await mkdir(manifests)
    await mkdir(join(dir, 'real'))
    await writeFile(join(dir, 'real', 'web.yaml'), podYaml('web'))
    await symlink(join(dir, 'real', 'web.yaml'), join(manifests, 'web.yaml'))
    const src = source(manifests, {clock})
    await src.waitFor((s) => s.pods.length === 1, 'with web')
    // The target lives outside the watched directory: no event.
    await writeFile(join(dir, 'real', 'web.yaml'), podYaml('web', 'nginx:2'))
    await sleep(100)
    expect(src.snapshots).toHaveLength(1)
    await clock.relist()
    await src.waitFor((s) => s.pods[0]?.pod.spec.containers[0]?.image === 'nginx:2', 'with nginx:2')
  })

  describe('re-lists without reading unchanged files', () => {
    /** File times look older than they are, as on a node whose manifests were written long ago. */
    class SettledClock extends RelistClock {
      override now(): number {
        return Date.now() + 10_000
      }
    }
    /** The host, counting the manifest files it reads. */
    function countingFs(reads: string[]): typeof nodeHostFs {
      return {...nodeHostFs, readBounded: (path: string, limit: number) => (reads.push(path), nodeHostFs.readBounded(path, limit))}
    }
    function countingSource(path: string, clock: Clock, reads: string[]) {
      const s = createFileSource({path, nodeName: NODE, checkFrequencyMs: RELIST_MS, logger: silentLogger, debounceMs: 30, fs: countingFs(reads), clock})
      sources.push(s)
      return collect(s)
    }

    it('reads a file again only when its version changed, even to text of the same size behind a link', async () => {
      const clock = new SettledClock(RELIST_MS)
      const manifests = join(dir, 'manifests')
      await mkdir(manifests)
      await mkdir(join(dir, 'real'))
      await writeFile(join(dir, 'real', 'web.yaml'), podYaml('web', 'nginx:1.27'))
      await symlink(join(dir, 'real', 'web.yaml'), join(manifests, 'web.yaml'))
      await writeFile(join(manifests, 'api.yaml'), podYaml('api'))
      const reads: string[] = []
      const src = countingSource(manifests, clock, reads)
      await src.waitFor((s) => s.pods.length === 2, 'with web and api')
      expect(reads.sort()).toEqual([join(manifests, 'api.yaml'), join(manifests, 'web.yaml')])

      reads.length = 0
      await clock.relist()
      await clock.relist()
      expect(reads).toEqual([])
      expect(summary(src.snapshots.at(-1)!)).toEqual({pods: {api: 'nginx:1.27', web: 'nginx:1.27'}, issues: []})

      // No event (the target is outside the watched directory), the same size: a new version all the same.
      await writeFile(join(dir, 'real', 'web.yaml'), podYaml('web', 'nginx:1.28'))
      await clock.relist()
      await src.waitFor((s) => s.pods.find((p) => p.manifestName === 'web')?.pod.spec.containers[0]?.image === 'nginx:1.28', 'with web at nginx:1.28')
      expect(reads).toEqual([join(manifests, 'web.yaml')])
    })

    it('reads a file again at every re-list while its last change is too recent to trust', async () => {
      const clock = new RelistClock(RELIST_MS)
      await writeFile(join(dir, 'web.yaml'), podYaml('web'))
      const reads: string[] = []
      const src = countingSource(dir, clock, reads)
      await src.waitFor((s) => s.pods.length === 1, 'with web')
      await clock.relist()
      expect(reads).toEqual([join(dir, 'web.yaml'), join(dir, 'web.yaml')])
    })

    it('reads a broken file again once it is fixed, and forgets a removed one', async () => {
      const clock = new SettledClock(RELIST_MS)
      const file = join(dir, 'web.yaml')
      await writeFile(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: web\n')
      const reads: string[] = []
      const src = countingSource(dir, clock, reads)
      await src.waitFor((s) => s.issues.length > 0, 'with an issue')
      await writeFile(file, podYaml('web'))
      await src.waitFor((s) => s.pods.length === 1 && s.issues.length === 0, 'with web')
      await rm(file)
      await src.waitFor((s) => s.pods.length === 0, 'without web')
      await writeFile(file, podYaml('web', 'nginx:2'))
      await src.waitFor((s) => s.pods[0]?.pod.spec.containers[0]?.image === 'nginx:2', 'with web at nginx:2')
    })
  })

  it('never drops the pod while a file is written in two halves', async () => {
    const file = join(dir, 'web.yaml')
    await writeFile(file, podYaml('web'))
    const src = source(dir)
    await src.waitFor((s) => s.pods.length === 1, 'with web')
    const text = podYaml('web', 'nginx:1.28')
    const half = text.indexOf('image:') + 3
    await writeFile(file, text.slice(0, half))
    // The half is read on its own (however slow the machine) before the rest arrives.
    await src.waitFor((s) => s.issues.some((i) => i.message.startsWith('invalid YAML')), 'the half reported')
    await appendFile(file, text.slice(half))
    await src.waitFor((s) => s.pods[0]?.pod.spec.containers[0]?.image === 'nginx:1.28', 'with the new image')
    // The half was seen (reported as a problem) but the pod stayed all along.
    expect(src.snapshots.some((s) => s.issues.some((i) => i.message.startsWith('invalid YAML')))).toBe(true)
    expect(src.snapshots.every((s) => s.pods.some((p) => p.manifestName === 'web'))).toBe(true)
  })

  it('never drops the pod when a file is truncated or replaced by rename', async () => {
    const file = join(dir, 'web.yaml')
    await writeFile(file, podYaml('web'))
    const src = source(dir)
    await src.waitFor((s) => s.pods.length === 1, 'with web')
    await writeFile(file, '')
    await sleep(100)
    const tmp = join(dir, '.web.yaml.tmp')
    await writeFile(tmp, podYaml('web', 'nginx:2'))
    await rename(tmp, file)
    await src.waitFor((s) => s.pods[0]?.pod.spec.containers[0]?.image === 'nginx:2', 'with the new image')
    expect(src.snapshots.some((s) => s.issues.some((i) => i.message === 'is empty'))).toBe(true)
    expect(src.snapshots.every((s) => s.pods.length === 1)).toBe(true)
  })

  it('reads a single file given as the path', async () => {
    const file = join(dir, 'web.yaml')
    await writeFile(file, podYaml('web'))
    await writeFile(join(dir, 'other.yaml'), podYaml('other'))
    const src = source(file)
    await src.waitFor((s) => s.pods.length === 1, 'with web')
    await writeFile(file, podYaml('web', 'nginx:2'))
    const snap = await src.waitFor((s) => s.pods[0]?.pod.spec.containers[0]?.image === 'nginx:2', 'with the new image')
    expect(summary(snap).pods).toEqual({web: 'nginx:2'})
  })

  it('marks a snapshot incomplete while a file was never good, and logs a problem once', async () => {
    const {logger, lines} = captureLogger()
    const clock = new RelistClock(RELIST_MS)
    await writeFile(join(dir, 'web.yaml'), 'kind: [')
    const src = source(dir, {logger, clock})
    const snap = await src.waitFor(() => true, 'at all')
    expect(snap.complete).toBe(false)
    await clock.relist()
    await clock.relist()
    expect(src.snapshots).toHaveLength(1)
    expect(lines.filter((l) => l.startsWith('W') && l.includes('web.yaml'))).toHaveLength(1)
    await writeFile(join(dir, 'web.yaml'), podYaml('web'))
    const good = await src.waitFor((s) => s.pods.length === 1, 'with web')
    expect(good.complete).toBe(true)
    expect(lines.filter((l) => l.startsWith('I') && l.includes('resolved'))).toHaveLength(1)
  })

  it('emits nothing after stop', async () => {
    const src = source(dir, {checkFrequencyMs: 20})
    await src.waitFor(() => true, 'at all')
    await sources[0]!.stop()
    await writeFile(join(dir, 'web.yaml'), podYaml('web'))
    await sleep(100)
    expect(src.snapshots).toHaveLength(1)
  })
})
