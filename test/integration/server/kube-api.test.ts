// The read-only Kubernetes API on the real HTTP server, spoken to by the real kubectl (when it is
// installed; scripts/test.sh installs it) and by plain HTTP for what kubectl does not show.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {execFile, spawn} from 'node:child_process'
import {promisify} from 'node:util'
import {startServer, type RunningServer} from '../../../src/server/server.js'
import {createKubeApi, type KubeApi} from '../../../src/server/kube-api/handler.js'
import type {KubeApiData, NodeLogRequest} from '../../../src/server/kube-api/types.js'
import type {Event, Pod} from '../../../src/api/types.js'
import {silentLogger} from '../../../src/util/logger.js'
import {wholeLine} from '../../support/log-lines.js'
import {NotFoundError} from '../../../src/util/errors.js'
import {KUBE_API_LIMITS} from '../../../src/server/kube-api/limits.js'
import {startApiTls, type RunningApiTls} from '../../../src/server/api-tls.js'
import {selfSignedCertificate} from '../../../src/server/self-signed-cert.js'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

const run = promisify(execFile)
const KUBECTL = process.env['KUBECTL'] ?? 'kubectl'
const haveKubectl = await run(KUBECTL, ['version', '--client']).then(
  () => true,
  () => false,
)

const T0 = Date.parse('2026-01-01T00:00:00Z')
/** The credential logs and events need; kubectl() and the log requests below send it. */
const TOKEN = 'integration-test-token'
const AUTH = {authorization: `Bearer ${TOKEN}`}

function pod(name: string, extra: {phase?: string; restarts?: number; ready?: boolean; namespace?: string; labels?: Record<string, string>} = {}): Pod {
  const ready = extra.ready ?? true
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name: `${name}-n1`, namespace: extra.namespace ?? 'default', uid: `uid-${name}`, labels: extra.labels ?? {app: name}},
    spec: {nodeName: 'n1', containers: [{name: 'main', image: 'busybox'}]},
    status: {
      phase: extra.phase ?? 'Running',
      podIP: '10.0.0.7',
      startTime: new Date(T0 - 300_000).toISOString(),
      conditions: [{type: 'Ready', status: ready ? 'True' : 'False'}],
      containerStatuses: [
        {
          name: 'main',
          image: 'busybox',
          imageID: '',
          ready,
          restartCount: extra.restarts ?? 0,
          state: {running: {startedAt: new Date(T0 - 60_000).toISOString()}},
          ...(extra.restarts ? {lastState: {terminated: {exitCode: 1, reason: 'Error', finishedAt: new Date(T0 - 120_000).toISOString()}}} : {}),
        },
      ],
    },
  }
}

const EVENTS: Event[] = [
  {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {name: 'web-n1.1', namespace: 'default'},
    involvedObject: {apiVersion: 'v1', kind: 'Pod', name: 'web-n1', namespace: 'default', uid: 'uid-web'},
    reason: 'Started',
    message: 'Started container main',
    type: 'Normal',
    count: 1,
    source: {component: 'kubelet', host: 'n1'},
    firstTimestamp: new Date(T0 - 60_000).toISOString(),
    lastTimestamp: new Date(T0 - 60_000).toISOString(),
  },
  {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {name: 'db-n1.1', namespace: 'default'},
    involvedObject: {apiVersion: 'v1', kind: 'Pod', name: 'db-n1', namespace: 'default', uid: 'uid-db'},
    reason: 'BackOff',
    message: 'Back-off restarting failed container',
    type: 'Warning',
    count: 3,
    source: {component: 'kubelet', host: 'n1'},
    firstTimestamp: new Date(T0 - 240_000).toISOString(),
    lastTimestamp: new Date(T0 - 30_000).toISOString(),
  },
]

let pods: Pod[]
let podsError: Error | undefined
let logCalls: NodeLogRequest[]
let api: KubeApi
let server: RunningServer
let base: string
let tls: RunningApiTls
const CERT = selfSignedCertificate({ips: ['127.0.0.1'], dnsNames: ['localhost'], now: new Date(), days: 1})
const CA_FILE = join(mkdtempSync(join(tmpdir(), 'kn-api-ca-')), 'ca.crt')
writeFileSync(CA_FILE, CERT.certPem)

function data(): KubeApiData {
  return {
    pods: async () => {
      if (podsError) throw podsError
      return pods
    },
    events: async () => EVENTS,
    log: async (req, write, signal) => {
      logCalls.push(req)
      if (!pods.some((p) => p.metadata?.name === req.name)) throw new NotFoundError(`pod "${req.name}" not found`)
      const lines = req.previous ? ['previous 1'] : ['line 1', 'line 2', 'line 3']
      const shown = req.tail !== undefined ? lines.slice(-req.tail) : lines
      for (const l of shown) await write(wholeLine(req.timestamps ? `2026-01-01T00:00:00.000000000Z ${l}` : l, '2026-01-01T00:00:00.000000000Z'))
      if (req.follow) {
        await write(wholeLine('following'))
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), {once: true}))
      }
    },
    kubeNodeVersion: '0.1.0',
    platform: 'linux/amd64',
  }
}

beforeEach(async () => {
  pods = [pod('web'), pod('db', {restarts: 2}), pod('sys', {namespace: 'kube-system', labels: {tier: 'control'}})]
  logCalls = []
  podsError = undefined
  api = createKubeApi({data: data(), logger: silentLogger, now: () => T0, sleep: async () => {}, credential: TOKEN})
  server = await startServer({address: '127.0.0.1', port: 'ephemeral', healthzPort: 0, handlers: {pods: () => ({}), healthz: () => ({ok: true}), metrics: async () => '', kubeApi: api}, logger: silentLogger})
  base = `http://127.0.0.1:${server.port}`
  tls = await startApiTls({address: '127.0.0.1', certificate: CERT, api, logger: silentLogger})
})

afterEach(async () => {
  api.close()
  await Promise.all([server.close(), tls.close()])
})

/** kubectl sends its token only over TLS: it speaks to the API's TLS listener, as kubeconfig has it. */
const kubectlTarget = (): string[] => ['--server', `https://127.0.0.1:${tls.port}`, '--certificate-authority', CA_FILE, '--token', TOKEN]

async function kubectl(...args: string[]): Promise<{stdout: string; stderr: string; code: number}> {
  try {
    const r = await run(KUBECTL, [...kubectlTarget(), '--request-timeout', '10s', ...args], {env: {...process.env, KUBECONFIG: '/dev/null', HOME: '/nonexistent'}})
    return {stdout: r.stdout, stderr: r.stderr, code: 0}
  } catch (err) {
    const e = err as {stdout: string; stderr: string; code: number}
    return {stdout: e.stdout, stderr: e.stderr, code: e.code}
  }
}

describe('the Kubernetes API over HTTP', () => {
  it('answers discovery in the legacy form even when the aggregated form is asked for', async () => {
    const res = await fetch(`${base}/api`, {headers: {accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json'}})
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toMatchObject({kind: 'APIVersions', versions: ['v1']})
    const v1 = (await (await fetch(`${base}/api/v1`)).json()) as {resources: Array<{name: string; verbs: string[]; shortNames?: string[]}>}
    expect(v1.resources.find((r) => r.name === 'pods')).toMatchObject({verbs: ['get', 'list', 'watch'], shortNames: ['po']})
    expect(v1.resources.map((r) => r.name)).toEqual(expect.arrayContaining(['pods/log', 'events']))
    expect(await (await fetch(`${base}/apis`)).json()).toMatchObject({kind: 'APIGroupList', groups: []})
  })

  it('refuses writes, exec and unknown paths with a v1 Status, at once', async () => {
    const del = await fetch(`${base}/api/v1/namespaces/default/pods/web-n1`, {method: 'DELETE'})
    expect(del.status).toBe(405)
    expect(await del.json()).toMatchObject({kind: 'Status', reason: 'MethodNotAllowed', code: 405})
    const exec = await fetch(`${base}/api/v1/namespaces/default/pods/web-n1/exec?command=sh`, {method: 'POST'})
    expect(exec.status).toBe(405)
    expect(((await exec.json()) as {message: string}).message).toContain('kube-node exec')
    const unknown = await fetch(`${base}/api/v1/namespaces/default/secrets`)
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({kind: 'Status', reason: 'NotFound'})
    const bad = await fetch(`${base}/api/v1/namespaces/..%2F..%2Fetc/pods`)
    expect(bad.status).toBe(400)
    // The node's own endpoints are untouched.
    expect((await fetch(`${base}/nope`)).status).toBe(404)
  })

  it('streams a watch from the resourceVersion of a list: each change once, with a newer resourceVersion', async () => {
    const list = (await (await fetch(`${base}/api/v1/namespaces/default/pods`)).json()) as {metadata: {resourceVersion: string}; items: Pod[]}
    expect(list.items.map((p) => p.metadata?.name)).toEqual(['db-n1', 'web-n1'])
    const ac = new AbortController()
    const res = await fetch(`${base}/api/v1/namespaces/default/pods?watch=true&resourceVersion=${list.metadata.resourceVersion}`, {signal: ac.signal})
    const reader = res.body!.getReader()
    pods = [pod('web', {restarts: 1}), pod('sys', {namespace: 'kube-system'})]
    let text = ''
    while (text.split('\n').length < 3) text += new TextDecoder().decode((await reader.read()).value)
    const events = text.trim().split('\n').map((l) => JSON.parse(l) as {type: string; object: Pod})
    expect(events.map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual(['MODIFIED web-n1', 'DELETED db-n1'])
    expect(Number(events[1]!.object.metadata?.resourceVersion)).toBeGreaterThan(Number(list.metadata.resourceVersion))
    ac.abort()
  })

  it('a watch as the official clients send it: True, bookmarks, closed after timeoutSeconds, resumed from the last bookmark with only what changed', async () => {
    const read = async (url: string): Promise<Array<{type: string; object: Pod}>> => {
      const text = await (await fetch(url)).text()
      return text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as {type: string; object: Pod})
    }
    // Runs until the server closes it after 3 s: a bookmark 2 s before the end.
    const first = await read(`${base}/api/v1/namespaces/default/pods?watch=True&allowWatchBookmarks=True&timeoutSeconds=3`)
    expect(first.map((e) => `${e.type} ${e.object.metadata?.name ?? ''}`)).toEqual(['ADDED db-n1', 'ADDED web-n1', 'BOOKMARK ', 'BOOKMARK '])
    expect(first[2]!.object).toMatchObject({kind: 'Pod', apiVersion: 'v1', metadata: {annotations: {'k8s.io/initial-events-end': 'true'}}})
    const last = first[3]!.object.metadata!.resourceVersion!
    pods = [pod('web', {restarts: 1}), pod('db', {restarts: 2})]
    const again = await read(`${base}/api/v1/namespaces/default/pods?watch=1&resourceVersion=${last}&timeoutSeconds=1`)
    expect(again.map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual(['MODIFIED web-n1'])
  })

  it('lists and gets by resourceVersion as the API server: NotOlderThan the current state, Exact the past one, a newer one 504', async () => {
    const list = (await (await fetch(`${base}/api/v1/namespaces/default/pods`)).json()) as {metadata: {resourceVersion: string}}
    pods = [pod('web')]
    const now = (await (await fetch(`${base}/api/v1/namespaces/default/pods?resourceVersion=${list.metadata.resourceVersion}`)).json()) as {items: Pod[]; metadata: {resourceVersion: string}}
    expect(now.items.map((p) => p.metadata?.name)).toEqual(['web-n1'])
    const exact = (await (await fetch(`${base}/api/v1/namespaces/default/pods?resourceVersion=${list.metadata.resourceVersion}&resourceVersionMatch=Exact`)).json()) as {items: Pod[]; metadata: {resourceVersion: string}}
    expect(exact.items.map((p) => p.metadata?.name)).toEqual(['db-n1', 'web-n1'])
    expect(exact.metadata.resourceVersion).toBe(list.metadata.resourceVersion)
    const future = await fetch(`${base}/api/v1/pods?resourceVersion=${Number(now.metadata.resourceVersion) + 5}`)
    expect(future.status).toBe(504)
    expect(await future.json()).toMatchObject({reason: 'Timeout', details: {causes: [{reason: 'ResourceVersionTooLarge'}]}})
    // A named GET is a get: watch does not apply, a version newer than any handed out is 504.
    expect(await (await fetch(`${base}/api/v1/namespaces/default/pods/web-n1?watch=true&resourceVersion=0`)).json()).toMatchObject({kind: 'Pod', metadata: {name: 'web-n1'}})
    expect((await fetch(`${base}/api/v1/namespaces/default/pods/web-n1?resourceVersion=${Number(now.metadata.resourceVersion) + 5}`)).status).toBe(504)
    const invalid = await fetch(`${base}/api/v1/pods?resourceVersionMatch=Exact`)
    expect(invalid.status).toBe(422)
    expect(await invalid.json()).toMatchObject({reason: 'Invalid', details: {kind: 'ListOptions', group: 'meta.k8s.io', causes: [{field: 'resourceVersionMatch', reason: 'FieldValueForbidden'}]}})
  })

  it('indents its JSON for pretty=true and for curl, as the API server', async () => {
    expect(await (await fetch(`${base}/version?pretty=true`)).text()).toMatch(/^\{\n {2}"/)
    expect(await (await fetch(`${base}/version`, {headers: {'user-agent': 'curl/8.5.0'}})).text()).toMatch(/^\{\n {2}"/)
    expect(await (await fetch(`${base}/version?pretty=0`, {headers: {'user-agent': 'curl/8.5.0'}})).text()).toMatch(/^\{"/)
  })

  it('answers a 500 Status, not stale pods, when the pods cannot be read', async () => {
    expect((await fetch(`${base}/api/v1/pods`)).status).toBe(200)
    podsError = new Error('runtime unreachable')
    const res = await fetch(`${base}/api/v1/pods`)
    expect(res.status).toBe(500)
    expect(await res.json()).toMatchObject({kind: 'Status', reason: 'InternalError', message: 'internal error: runtime unreachable'})
  })

  it('bounds the watches and follows open at once, and frees one when its client goes away', async () => {
    const open: AbortController[] = []
    const watch = async (): Promise<Response> => {
      const ac = new AbortController()
      open.push(ac)
      return fetch(`${base}/api/v1/pods?watch=true`, {signal: ac.signal})
    }
    for (let i = 0; i < KUBE_API_LIMITS.maxStreams; i++) expect((await watch()).status).toBe(200)
    const refused = await watch()
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({kind: 'Status', reason: 'TooManyRequests'})
    const follow = await fetch(`${base}/api/v1/namespaces/default/pods/web-n1/log?follow=true`, {headers: AUTH})
    expect(follow.status).toBe(429)
    // Plain requests are still served.
    expect((await fetch(`${base}/api/v1/pods`)).status).toBe(200)
    open[0]!.abort()
    await expect.poll(async () => (await watch()).status, {timeout: 5000}).toBe(200)
    for (const ac of open) ac.abort()
  })

  it('refuses the API with 403 on a non-loopback address unless allowed', async () => {
    const refused = createKubeApi({data: data(), logger: silentLogger, now: () => T0, sleep: async () => {}, refusal: 'loopback only', credential: TOKEN})
    const s = await startServer({address: '127.0.0.1', port: 'ephemeral', healthzPort: 0, handlers: {pods: () => ({}), healthz: () => ({ok: true}), metrics: async () => '', kubeApi: refused}, logger: silentLogger})
    try {
      const res = await fetch(`http://127.0.0.1:${s.port}/api/v1/pods`)
      expect(res.status).toBe(403)
      expect(await res.json()).toMatchObject({reason: 'Forbidden', message: 'loopback only'})
    } finally {
      refused.close()
      await s.close()
    }
  })
})

describe.runIf(haveKubectl)('the real kubectl against the API', () => {
  it('get pods prints the columns and statuses a cluster prints', async () => {
    const r = await kubectl('get', 'pods')
    expect(r.stderr).toBe('')
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/)
    expect(lines[1]).toMatch(/^db-n1\s+1\/1\s+Running\s+2 \(2m ago\)\s+5m$/)
    expect(lines[2]).toMatch(/^web-n1\s+1\/1\s+Running\s+0\s+5m$/)
  })

  it('version and api-resources read the discovery', async () => {
    // The server answers kubectl with kubectl's own minor: no version-skew warning.
    const version = await kubectl('version')
    const client = /Client Version: v1\.(\d+)\./.exec(version.stdout)?.[1]
    expect(version.stdout).toContain(`Server Version: v1.${client}.0+kube-node-0.1.0`)
    expect(version.stdout + version.stderr).not.toMatch(/WARNING/)
    const resources = await kubectl('api-resources')
    expect(resources.stdout).toMatch(/^pods\s+po\s+v1\s+true\s+Pod$/m)
    expect(resources.stdout).toMatch(/^events\s+ev\s+v1\s+true\s+Event$/m)
  })

  it('get pods -o wide adds IP, NODE, NOMINATED NODE, READINESS GATES; -A adds NAMESPACE', async () => {
    const wide = await kubectl('get', 'po', '-o', 'wide')
    expect(wide.stdout.split('\n')[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/)
    expect(wide.stdout).toMatch(/web-n1\s+1\/1\s+Running\s+0\s+5m\s+10\.0\.0\.7\s+n1\s+<none>\s+<none>/)
    const all = await kubectl('get', 'pods', '-A')
    expect(all.stdout).toMatch(/kube-system\s+sys-n1/)
  })

  it('selects by label and field', async () => {
    expect((await kubectl('get', 'pods', '-A', '-l', 'tier=control', '-o', 'name')).stdout.trim()).toBe('pod/sys-n1')
    expect((await kubectl('get', 'pods', '--field-selector', 'metadata.name=web-n1', '-o', 'name')).stdout.trim()).toBe('pod/web-n1')
    const bad = await kubectl('get', 'pods', '--field-selector', 'spec.bogus=x')
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('field label not supported: spec.bogus')
  })

  it('get pod X -o yaml is the pod with its status', async () => {
    const r = await kubectl('get', 'pod', 'web-n1', '-o', 'yaml')
    expect(r.stdout).toContain('kind: Pod')
    expect(r.stdout).toContain('name: web-n1')
    expect(r.stdout).toContain('phase: Running')
    const missing = await kubectl('get', 'pod', 'nope')
    expect(missing.stderr).toContain('pods "nope" not found')
  })

  it('describe pod shows its Events', async () => {
    const r = await kubectl('describe', 'pod', 'db-n1')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Events:\s*\n\s+Type\s+Reason\s+Age\s+From\s+Message/)
    expect(r.stdout).toMatch(/Warning\s+BackOff\s+.*kubelet\s+Back-off restarting failed container/)
    expect(r.stdout).not.toContain('Started container main')
  })

  it('get events lists them', async () => {
    const r = await kubectl('get', 'events')
    expect(r.stdout.split('\n')[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/)
    expect(r.stdout).toMatch(/30s \(x3 over 4m\)\s+Warning\s+BackOff\s+pod\/db-n1\s+Back-off restarting failed container/)
  })

  it('logs, with --tail, --timestamps and --previous', async () => {
    expect((await kubectl('logs', 'web-n1')).stdout).toBe('line 1\nline 2\nline 3\n')
    expect((await kubectl('logs', 'web-n1', '--tail', '1', '--timestamps')).stdout).toBe('2026-01-01T00:00:00.000000000Z line 3\n')
    expect((await kubectl('logs', 'web-n1', '--previous')).stdout).toBe('previous 1\n')
    expect(logCalls.at(-1)).toMatchObject({namespace: 'default', name: 'web-n1', previous: true})
  })

  it('logs --limit-bytes cuts the log at that byte, inside a line or at its end; HEAD sends no body', async () => {
    expect((await kubectl('logs', 'web-n1', '--limit-bytes', '10')).stdout).toBe('line 1\nlin')
    expect((await kubectl('logs', 'web-n1', '--limit-bytes', '7')).stdout).toBe('line 1\n')
    expect((await kubectl('logs', 'web-n1', '--limit-bytes', '1000')).stdout).toBe('line 1\nline 2\nline 3\n')
    const head = await fetch(`${base}/api/v1/namespaces/default/pods/web-n1/log`, {method: 'HEAD', headers: AUTH})
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  it('logs -f streams until kubectl goes away, and frees the stream', async () => {
    const child = spawn(KUBECTL, [...kubectlTarget(), 'logs', '-f', 'web-n1'], {env: {...process.env, KUBECONFIG: '/dev/null'}})
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    await expect.poll(() => out, {timeout: 10_000}).toContain('following')
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
    // Another follow is accepted: the first one's slot was given back.
    await expect.poll(async () => (await kubectl('logs', 'web-n1', '--tail', '1')).stdout, {timeout: 5000}).toBe('line 3\n')
  })

  it('delete is refused with a clear message, and nothing hangs', async () => {
    const r = await kubectl('delete', 'pod', 'web-n1')
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('MethodNotAllowed')
    expect(r.stderr).toContain('read-only')
  })

  it('exec, attach and port-forward are refused at once', async () => {
    for (const args of [['exec', 'web-n1', '--', 'ls'], ['attach', 'web-n1'], ['port-forward', 'web-n1', '18080:80']]) {
      const r = await kubectl(...args)
      expect(r.code, args[0]).not.toBe(0)
      expect(r.stderr, args[0]).toMatch(/not supported|MethodNotAllowed|405/)
    }
  })

  it('get pods -w prints the table, then a row for each change', async () => {
    const child = spawn(KUBECTL, ['--server', base, 'get', 'pods', '-w'], {env: {...process.env, KUBECONFIG: '/dev/null'}})
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    await expect.poll(() => out, {timeout: 10_000}).toContain('web-n1')
    pods = [pod('web', {restarts: 1, ready: false}), pod('db', {restarts: 2})]
    await expect.poll(() => out, {timeout: 10_000}).toMatch(/web-n1\s+0\/1\s+Running\s+1 \(2m ago\)/)
    // One header, then one row per event, as against a cluster.
    expect(out.match(/^NAME\s+READY/gm)).toHaveLength(1)
    child.kill('SIGTERM')
  })
})
