// imagePullSecrets over the fake CRI: a docker secret among the manifests' objects gives its
// registry's credentials to PullImage (each in turn until one works), a secret not there draws the
// standalone kubelet's warning and the image is pulled without, a secret that cannot be read fails
// the pull naming it, and the credentials appear in no log line, event, status or error.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {FakeRuntime} from '../support/fake-runtime.js'
import {FakeClock} from '../support/fake-clock.js'
import {createNode, type KubeNode} from '../../src/node/create-node.js'
import {loadStaticPods} from '../../src/manifest/load.js'
import {runOnce, type PodRunResult} from '../../src/loop/run-once.js'
import {createObjectStore} from '../../src/manifest/object-store.js'
import {createLogger} from '../../src/util/logger.js'
import type {Secret, StaticPod} from '../../src/api/types.js'
import {testNodeConfig} from '../support/node-config.js'
import {diskIO} from '../support/disk-io.js'

const IMAGE = 'registry.example.com/team/app:1.0'
const PASSWORD = 'pa55-hunter2-marker'
const b64 = (s: string): string => Buffer.from(s).toString('base64')

function regcred(name: string, auths: Record<string, unknown>): Secret {
  return {apiVersion: 'v1', kind: 'Secret', metadata: {name}, type: 'kubernetes.io/dockerconfigjson', data: {'.dockerconfigjson': b64(JSON.stringify({auths}))}}
}

describe('imagePullSecrets over the fake CRI', () => {
  let work: string
  let fake: FakeRuntime
  let node: KubeNode
  let logs: string

  async function staticPod(secrets: string[]): Promise<StaticPod> {
    const file = join(work, 'app.yaml')
    writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata: {name: app}\nspec:\n  imagePullSecrets: [${secrets.map((s) => `{name: ${s}}`).join(', ')}]\n  containers: [{name: main, image: "${IMAGE}"}]\n`)
    return (await loadStaticPods([file], {nodeName: 'n1', io: diskIO})).pods[0]!
  }
  async function run(sp: StaticPod, secrets: Secret[]): Promise<PodRunResult> {
    const [r] = await runOnce(node.sync, [sp], {wait: 'running', timeoutMs: 5_000, parallelism: 1}, {objects: createObjectStore([], secrets)})
    await node.events.flush()
    return r!
  }
  const pulls = (): unknown[][] => fake.calls.filter((c) => c.call === 'PullImage').map((c) => c.args)
  /** Every event file under the root dir, as text. */
  const eventText = (): string => {
    const pods = join(work, 'root', 'pods')
    return readdirSync(pods).map((uid) => {
      try {
        return readFileSync(join(pods, uid, 'events.json'), 'utf8')
      } catch {
        return ''
      }
    }).join('\n')
  }

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), 'kn-pullsecret-'))
    fake = new FakeRuntime({images: []})
    fake.pullable.add(IMAGE)
    logs = ''
    node = await createNode(
      testNodeConfig(work),
      createLogger({verbosity: 10, format: 'text', write: (l) => (logs += l)}),
      {runtime: fake, clock: new FakeClock(fake)},
    )
  })
  afterEach(() => rmSync(work, {recursive: true, force: true}))

  it('the secret of the image\'s registry is passed to PullImage', async () => {
    fake.registryLogins.set(IMAGE, `robot:${PASSWORD}`)
    const r = await run(await staticPod(['regcred']), [regcred('regcred', {'https://registry.example.com': {auth: b64(`robot:${PASSWORD}`)}, 'other.example.com': {username: 'x', password: 'y'}})])
    expect(r.outcome, r.reason).toBe('done')
    expect(pulls()).toEqual([[{image: IMAGE, userSpecifiedImage: IMAGE}, {username: 'robot', password: PASSWORD}]])
    expect(logs).not.toContain(PASSWORD)
    expect(logs).toContain('withCredentials')
    expect(eventText()).not.toContain(PASSWORD)
    expect(JSON.stringify(r.status)).not.toContain(PASSWORD)
  })

  it('several matching credentials are tried in turn, the most specific first', async () => {
    fake.registryLogins.set(IMAGE, `team:${PASSWORD}`)
    const secrets = [regcred('a', {'registry.example.com/team': {username: 'wrong', password: 'nope'}}), regcred('b', {'registry.example.com': {username: 'team', password: PASSWORD}})]
    const r = await run(await staticPod(['b', 'a']), secrets)
    expect(r.outcome, r.reason).toBe('done')
    expect(pulls().map((args) => (args[1] as {username: string}).username)).toEqual(['wrong', 'team'])
    expect(logs).not.toContain(PASSWORD)
  })

  it('a secret that is not among the objects draws the kubelet\'s warning; the image is pulled without', async () => {
    const r = await run(await staticPod(['missing', 'gone']), [])
    expect(r.outcome, r.reason).toBe('done')
    expect(pulls()).toEqual([[{image: IMAGE, userSpecifiedImage: IMAGE}]])
    expect(eventText()).toContain('Unable to retrieve some image pull secrets (missing, gone); attempting to pull the image may not succeed.')
    expect(eventText()).toContain('FailedToRetrieveImagePullSecret')
  })

  it('credentials for another registry are not sent', async () => {
    const r = await run(await staticPod(['regcred']), [regcred('regcred', {'quay.io': {username: 'q', password: PASSWORD}})])
    expect(r.outcome, r.reason).toBe('done')
    expect(pulls()).toEqual([[{image: IMAGE, userSpecifiedImage: IMAGE}]])
  })

  it('a docker secret that cannot be read fails the pull, naming it and never quoting it', async () => {
    const bad: Secret = {apiVersion: 'v1', kind: 'Secret', metadata: {name: 'broken'}, type: 'kubernetes.io/dockerconfigjson', stringData: {'.dockerconfigjson': `{"auths": {"registry.example.com": {"password": "${PASSWORD}"`}}
    const sp = await staticPod(['broken'])
    const [r] = await runOnce(node.sync, [sp], {wait: 'running', timeoutMs: 300, parallelism: 1, pollMs: 100}, {objects: createObjectStore([], [bad])})
    await node.events.flush()
    expect(r!.outcome).not.toBe('done')
    expect(pulls()).toEqual([])
    expect(eventText()).toContain('imagePullSecret \\"broken\\": .dockerconfigjson is not valid JSON')
    for (const text of [logs, eventText(), JSON.stringify(r)]) expect(text).not.toContain(PASSWORD)
  })
})
