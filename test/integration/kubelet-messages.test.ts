// What `get`, `describe` and `events` show for image problems and crash loops, in the kubelet's
// words, through the watch loop over the fake CRI.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {FakeRuntime} from '../support/fake-runtime.js'
import {FakeClock} from '../support/fake-clock.js'
import {createNode, type KubeNode} from '../../src/node/create-node.js'
import {loadStaticPods} from '../../src/manifest/load.js'
import {SyncLoop} from '../../src/loop/sync-loop.js'
import {EMPTY_OBJECT_STORE} from '../../src/manifest/object-store.js'
import {silentLogger} from '../../src/util/logger.js'
import type {StaticPod} from '../../src/api/types.js'
import {testNodeConfig} from '../support/node-config.js'
import {diskIO} from '../support/disk-io.js'

const IMAGE = 'localhost:5000/busybox:1.0'
const MISSING = 'localhost:5000/missing:1'

describe('kubelet messages over the watch loop', () => {
  let work: string
  let fake: FakeRuntime
  let clock: FakeClock
  let node: KubeNode
  let loop: SyncLoop

  async function staticPod(name: string, image: string): Promise<StaticPod> {
    const file = join(work, `${name}.yaml`)
    writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n  containers: [{name: main, image: "${image}"}]\n`)
    return (await loadStaticPods([file], {nodeName: 'n1', io: diskIO})).pods[0]!
  }

  const waiting = (): {reason?: string | undefined; message?: string | undefined} | undefined => loop.statuses()[0]!.status?.containerStatuses?.[0]?.state?.waiting

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-msgs-'))
    fake = new FakeRuntime({images: [IMAGE]})
    clock = new FakeClock(fake)
    node = await createNode(testNodeConfig(work), silentLogger, {runtime: fake, clock})
    loop = new SyncLoop({sync: node.sync, logger: silentLogger, clock, sourcesReady: () => false, objects: () => EMPTY_OBJECT_STORE}, {random: () => 0})
  })

  afterEach(async () => {
    await loop.stop()
    rmSync(work, {recursive: true, force: true})
  })

  it('ErrImagePull shows the runtime error as given; ImagePullBackOff repeats it after "ErrImagePull: "', async () => {
    const web = await staticPod('web', MISSING)
    loop.handleUpdates([{op: 'ADD', pods: [web]}])
    await loop.idle()
    const pullError = `rpc error: code = NotFound desc = failed to resolve reference "${MISSING}": not found`
    expect(waiting()).toEqual({reason: 'ErrImagePull', message: pullError})
    // A sync inside the 10 s back-off (as any update or container event brings) does not pull.
    clock.advance(1_000)
    loop.handleUpdates([{op: 'UPDATE', pods: [web]}])
    await loop.idle()
    expect(waiting()).toEqual({reason: 'ImagePullBackOff', message: `Back-off pulling image "${MISSING}": ErrImagePull: ${pullError}`})
  })
})
