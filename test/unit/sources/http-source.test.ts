import {afterEach, describe, expect, it} from 'vitest'
import {createHttpSource} from '../../../src/sources/http-source.js'
import type {ManifestSource} from '../../../src/sources/types.js'
import {silentLogger, type Logger} from '../../../src/util/logger.js'
import {captureLogger, collect, NODE, podYaml, RelistClock, summary} from './helpers.js'

const PERIOD = 20_000
const URL_WITH_SECRETS = 'https://user:pw@h.example/pods.yaml?token=qsecret'
const SHOWN = 'https://h.example/pods.yaml'

type Answer = {status: number; body?: string} | 'timeout' | Error

/** A fetch that gives the queued answers in turn (the last one forever), recording each request. */
function fakeFetch(...answers: Answer[]) {
  const requests: Array<{url: string; headers: Headers}> = []
  const impl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    requests.push({url: String(input), headers: new Headers(init?.headers)})
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!
    if (answer === 'timeout') throw new DOMException('The operation was aborted due to timeout', 'TimeoutError')
    if (answer instanceof Error) throw answer
    return new Response(answer.body ?? '', {status: answer.status})
  }
  return {fetch: impl, requests}
}

let sources: ManifestSource[] = []
afterEach(async () => {
  await Promise.all(sources.map((s) => s.stop()))
  sources = []
})

function start(fetch: typeof globalThis.fetch, opts: {headers?: Record<string, string[]>; logger?: Logger} = {}) {
  const clock = new RelistClock(PERIOD)
  const source = createHttpSource({
    url: URL_WITH_SECRETS, headers: opts.headers ?? {}, nodeName: NODE, checkFrequencyMs: PERIOD,
    logger: opts.logger ?? silentLogger, fetch, clock,
  })
  sources.push(source)
  return {source, clock, ...collect(source)}
}

const ok = (body: string): Answer => ({status: 200, body})
const podList = `apiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: a}\n  spec: {containers: [{name: c, image: "a:1"}]}\n- metadata: {name: b}\n  spec: {containers: [{name: c, image: "b:1"}]}\n`

describe('http source', () => {
  it('turns a 200 answer into pods, naming the URL without its secrets', async () => {
    const {fetch, requests} = fakeFetch(ok(podYaml('web')))
    const src = start(fetch)
    const snap = await src.waitFor(() => true, 'at all')
    expect(src.source.name).toBe(`http:${SHOWN}`)
    expect(snap).toMatchObject({source: `http:${SHOWN}`, complete: true, issues: []})
    expect(summary(snap).pods).toEqual({web: 'nginx:1.27'})
    expect(snap.pods[0]?.source).toEqual({kind: 'http', location: SHOWN, document: 0})
    expect(snap.pods[0]?.pod.metadata.annotations?.['kubernetes.io/config.source']).toBe('http')
    // The request goes to the URL as given, its userinfo sent as basic authentication (as Go's
    // client does; fetch refuses URLs with credentials).
    const given = new URL(URL_WITH_SECRETS)
    expect(requests[0]?.url).toBe(URL_WITH_SECRETS.replace(`${given.username}:${given.password}@`, ''))
    expect(requests[0]?.headers.get('authorization')).toBe(`Basic ${Buffer.from(`${given.username}:${given.password}`).toString('base64')}`)
  })

  it('reads a PodList and multi-document YAML', async () => {
    const src = start(fakeFetch(ok(podList)).fetch)
    expect(summary(await src.waitFor(() => true, 'at all')).pods).toEqual({a: 'a:1', b: 'b:1'})
    const multi = start(fakeFetch(ok(`${podYaml('x')}---\n${podYaml('z')}`)).fetch)
    expect(summary(await multi.waitFor(() => true, 'at all')).pods).toEqual({x: 'nginx:1.27', z: 'nginx:1.27'})
  })

  it.each<[string, Answer, string]>([
    ['a 500', {status: 500}, 'GET returned HTTP 500, expected 200'],
    ['a timeout', 'timeout', 'no response within 10s'],
    ['a transport error', new TypeError('fetch failed', {cause: new Error('connect ECONNREFUSED')}), 'GET failed: fetch failed (connect ECONNREFUSED)'],
    ['an empty body', ok(''), 'is empty'],
    ['an invalid body', ok('kind: ['), 'invalid YAML'],
    ['an invalid pod', ok(podYaml('web', '')), 'must'],
  ])('keeps the last good pods after %s and reports it until the next good answer', async (_case, bad, message) => {
    const src = start(fakeFetch(ok(podYaml('web')), bad, ok(podYaml('web', 'nginx:2'))).fetch)
    await src.waitFor((s) => s.pods.length === 1, 'with web')
    await src.clock.relist()
    const kept = await src.waitFor((s) => s.issues.length > 0, 'with an issue')
    expect(summary(kept).pods).toEqual({web: 'nginx:1.27'})
    expect(kept.complete).toBe(true)
    expect(kept.issues[0]?.location).toBe(SHOWN)
    expect(kept.issues[0]?.message).toContain(message)
    await src.clock.relist()
    const fixed = await src.waitFor((s) => s.issues.length === 0, 'without issues')
    expect(summary(fixed).pods).toEqual({web: 'nginx:2'})
  })

  it('is incomplete with no pods until it got a first good answer', async () => {
    const src = start(fakeFetch({status: 503}, ok(podYaml('web'))).fetch)
    const first = await src.waitFor(() => true, 'at all')
    expect(first).toMatchObject({pods: [], complete: false})
    await src.clock.relist()
    expect(await src.waitFor((s) => s.pods.length === 1, 'with web')).toMatchObject({complete: true, issues: []})
  })

  it('emits nothing for an identical body, but clears an error when the same body comes back', async () => {
    const {fetch, requests} = fakeFetch(ok(podYaml('web')), ok(podYaml('web')), {status: 500}, ok(podYaml('web')))
    const src = start(fetch)
    await src.waitFor(() => true, 'at all')
    await src.clock.relist()
    expect(requests).toHaveLength(2)
    expect(src.snapshots).toHaveLength(1)
    await src.clock.relist()
    await src.waitFor((s) => s.issues.length === 1, 'with the 500')
    await src.clock.relist()
    await src.waitFor((s) => s.issues.length === 0, 'recovered')
    expect(src.snapshots.map((s) => s.pods.length)).toEqual([1, 1, 1])
  })

  it('sends every configured header value and never logs or reports one', async () => {
    const {logger, lines} = captureLogger()
    // Node's fetch repeats a bad header value in its error; it must not reach the log.
    const leaky = new TypeError('Headers.append: "Bearer hsecret" is an invalid header value.')
    const {fetch, requests} = fakeFetch(ok('kind: ['), leaky, {status: 401}, ok(podYaml('web')))
    const src = start(fetch, {headers: {Authorization: ['Bearer hsecret'], 'X-Multi': ['mv1secret', 'mv2secret']}, logger})
    await src.waitFor(() => true, 'at all')
    await src.clock.relist()
    await src.clock.relist()
    await src.clock.relist()
    await src.waitFor((s) => s.pods.length === 1, 'with web')
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer hsecret')
    expect(requests[0]?.headers.get('x-multi')).toBe('mv1secret, mv2secret')
    const everything = lines.join('') + JSON.stringify(src.snapshots)
    expect(lines.filter((l) => l.startsWith('W'))).toHaveLength(3)
    for (const secret of ['hsecret', 'qsecret', 'user:pw', 'mv1secret', 'mv2secret']) expect(everything).not.toContain(secret)
    expect(everything).toContain('<redacted>')
  })

  it('logs the same failure once, and the recovery at info', async () => {
    const {logger, lines} = captureLogger()
    const src = start(fakeFetch({status: 500}, {status: 500}, {status: 500}, ok(podYaml('web'))).fetch, {logger})
    await src.waitFor(() => true, 'at all')
    await src.clock.relist()
    await src.clock.relist()
    await src.clock.relist()
    await src.waitFor((s) => s.pods.length === 1, 'with web')
    expect(lines.filter((l) => l.includes('HTTP 500'))).toHaveLength(1)
    expect(lines.filter((l) => l.startsWith('I') && l.includes('resolved'))).toHaveLength(1)
  })

  it('stops polling and emitting on stop', async () => {
    const {fetch, requests} = fakeFetch(ok(podYaml('web')), ok(podYaml('api')))
    const src = start(fetch)
    await src.waitFor(() => true, 'at all')
    await src.source.stop()
    await new Promise((r) => setTimeout(r, 100))
    expect(requests).toHaveLength(1)
    expect(src.snapshots).toHaveLength(1)
  })
})
