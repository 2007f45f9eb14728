// The read-only Kubernetes API on watch's main port, under hostile requests: encoded and
// traversing paths, query and selector bombs, garbage parameters, writes with large bodies,
// watches opened without end or never read, remote hosts. Each answer is a prompt Status (or a
// closed connection), nothing leaks beyond what /pods shows, and the daemon stays bounded. Served
// by the real HTTP server with in-memory pods: no runtime needed.
import {connect} from 'node:net'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {startServer, type RunningServer} from '../../src/server/server.js'
import {createKubeApi, type KubeApi} from '../../src/server/kube-api/handler.js'
import type {KubeApiData, NodeLogRequest} from '../../src/server/kube-api/types.js'
import {KUBE_API_LIMITS} from '../../src/server/kube-api/limits.js'
import type {Pod} from '../../src/api/types.js'
import {silentLogger} from '../../src/util/logger.js'
import {wholeLine} from '../support/log-lines.js'
import {NotFoundError} from '../../src/util/errors.js'
import {rawRequest} from './support/raw-http.js'
import {startApiTls} from '../../src/server/api-tls.js'
import {selfSignedCertificate} from '../../src/server/self-signed-cert.js'

const T0 = Date.parse('2026-01-01T00:00:00Z')

function pod(name: string, extra: Partial<Pod['spec']> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name, namespace: 'default', uid: `uid-${name}`, labels: {app: name}},
    spec: {nodeName: 'n1', containers: [{name: 'main', image: 'busybox'}], ...extra},
    status: {phase: 'Running', startTime: new Date(T0).toISOString(), conditions: [{type: 'Ready', status: 'True'}]},
  }
}

let pods: Pod[]
let logCalls: NodeLogRequest[]
let api: KubeApi
let server: RunningServer
let base: string

function data(): KubeApiData {
  return {
    pods: async () => pods,
    events: async () => [],
    log: async (req, write, signal) => {
      logCalls.push(req)
      if (!pods.some((p) => p.metadata?.name === req.name)) throw new NotFoundError(`pod "${req.name}" not found`)
      await write(wholeLine('line 1'))
      if (req.follow) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), {once: true}))
    },
    kubeNodeVersion: '0.1.0',
    platform: 'linux/amd64',
  }
}

/** The credential logs and events need (what `kube-node kubeconfig` prints); get() sends it. */
const TOKEN = 'adversarial-test-token'

async function start(refusal?: string): Promise<void> {
  api = createKubeApi({data: data(), logger: silentLogger, now: () => Date.now(), sleep: async () => {}, refusal, credential: TOKEN})
  server = await startServer({address: '127.0.0.1', port: 'ephemeral', healthzPort: 0, handlers: {pods: () => ({items: pods}), healthz: () => ({ok: true}), metrics: async () => '', kubeApi: api}, logger: silentLogger})
  base = `http://127.0.0.1:${server.port}`
}

beforeEach(async () => {
  pods = [pod('web'), pod('db')]
  logCalls = []
  await start()
})

afterEach(async () => {
  api.close()
  await server.close()
})

interface Answer {
  status: number
  body: {kind?: string; status?: string; reason?: string; message?: string; code?: number}
  text: string
}

async function get(path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(base + path, {headers: {authorization: `Bearer ${TOKEN}`}, ...init, signal: AbortSignal.timeout(10_000)})
  const text = await res.text()
  let body = {}
  try {
    body = JSON.parse(text) as Answer['body']
  } catch {
    // not JSON: the plain 404 page or a log
  }
  return {status: res.status, body, text}
}

/** A v1 Status with this code, whose message is bounded (no echo of a megabyte of input). */
function expectStatus(a: Answer, code: number): void {
  expect(a.status, a.text.slice(0, 300)).toBe(code)
  expect(a.body.kind).toBe('Status')
  expect(a.body.code).toBe(code)
  expect(a.text.length).toBeLessThan(20_000)
}

describe('paths: every segment is decoded once and checked before use', () => {
  it.each([
    ['encoded ../ in the namespace', '/api/v1/namespaces/..%2f..%2fetc/pods', 400],
    ['a NUL in the namespace', '/api/v1/namespaces/default%00/pods', 400],
    ['a NUL in the name', '/api/v1/namespaces/default/pods/web%00', 400],
    ['an encoded slash in the name', '/api/v1/namespaces/default/pods/..%2fweb', 400],
    ['upper case in the name', '/api/v1/namespaces/default/pods/WEB', 400],
    ['a name of 254 characters', `/api/v1/namespaces/default/pods/${'a'.repeat(254)}`, 400],
    ['a namespace of 64 characters', `/api/v1/namespaces/${'a'.repeat(64)}/pods`, 400],
    ['malformed percent-encoding', '/api/v1/namespaces/%zz/pods', 400],
    ['an overlong UTF-8 encoding of /', '/api/v1/namespaces/%c0%af/pods', 400],
    ['an empty segment (double slash)', '/api/v1/namespaces//pods', 400],
    ['a trailing double slash', '/api/v1/namespaces/default/pods//', 400],
    ['too many segments', '/api/v1/namespaces/default/pods/web/log/x/y', 404],
    ['an unknown resource', '/api/v1/namespaces/default/secrets', 404],
    ['secrets across namespaces', '/api/v1/secrets', 404],
    ['a log of a pod in a traversing namespace', '/api/v1/namespaces/..%2f/pods/web/log', 400],
  ])('%s → %s Status', async (_name, path, code) => {
    expectStatus(await get(path), code)
    expect(logCalls).toEqual([])
  })

  it('an encoded .. (sent raw: fetch would resolve it) is an invalid namespace', async () => {
    // %2e%2e decodes to "..", which is no DNS label; nothing resolves it as a path step.
    for (const path of ['/api/v1/namespaces/%2e%2e/pods', '/api/v1/namespaces/%2E%2E/pods/web/log', '/api/v1/namespaces/default/pods/%2e%2e/log']) {
      const r = await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
      expect(r.status, path).toBe(400)
      expect(r.text).toContain('"kind":"Status"')
    }
    // Unencoded dot segments are not resolved either: they route nowhere.
    const r = await rawRequest(server.port, 'GET /api/v1/namespaces/default/pods/../../../../healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
    expect(r.status).toBe(404)
    expect(logCalls).toEqual([])
  })

  it('a path beginning with // is refused by the server, not routed', async () => {
    const r = await rawRequest(server.port, 'GET //api/v1/pods HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
    expect(r.status).toBe(400)
  })

  it('a URL of 1 MB is refused, and the server keeps answering', async () => {
    const r = await rawRequest(server.port, `GET /api/v1/pods?labelSelector=${'a'.repeat(1024 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    expect([400, 414, 431]).toContain(r.status)
    expect((await get('/api/v1/pods')).status).toBe(200)
  })
})

describe('query parameters and selectors', () => {
  it('refuses more than 32 parameters', async () => {
    const q = Array.from({length: 500}, (_, i) => `p${i}=1`).join('&')
    const a = await get(`/api/v1/pods?${q}`)
    expectStatus(a, 400)
    expect(a.body.message).toMatch(/too many query parameters/)
  })

  it('a label selector of thousands of terms is answered at once', async () => {
    const sel = Array.from({length: 1500}, (_, i) => `k${i}`).join(',')
    const started = performance.now()
    const a = await get(`/api/v1/pods?labelSelector=${sel}`)
    expect(a.status).toBe(200)
    expect(JSON.parse(a.text).items).toEqual([])
    expect(performance.now() - started).toBeLessThan(5000)
  })

  it('a deeply repeated `in (...)` and unbalanced parentheses are refused, not looped on', async () => {
    const nested = `app in (${'('.repeat(2000)}web${')'.repeat(2000)})`
    expectStatus(await get(`/api/v1/pods?labelSelector=${encodeURIComponent(nested)}`), 400)
    const repeated = Array.from({length: 250}, () => 'app in (web,db)').join(',')
    expect((await get(`/api/v1/pods?labelSelector=${encodeURIComponent(repeated)}`)).status).toBe(200)
    expectStatus(await get(`/api/v1/pods?labelSelector=${encodeURIComponent('app in (web')}`), 400)
    expectStatus(await get(`/api/v1/pods?labelSelector=${encodeURIComponent(')))(((')}`), 400)
  })

  it('a huge label value or key is refused with a Status', async () => {
    expectStatus(await get(`/api/v1/pods?labelSelector=app=${'v'.repeat(6000)}`), 400)
    expectStatus(await get(`/api/v1/pods?labelSelector=${'k'.repeat(6000)}=v`), 400)
  })

  it('an unsupported or garbage field selector is refused', async () => {
    expectStatus(await get('/api/v1/pods?fieldSelector=spec.containers[0].env=x'), 400)
    expectStatus(await get(`/api/v1/pods?fieldSelector=${encodeURIComponent('metadata.name')}`), 400)
    expectStatus(await get(`/api/v1/pods?fieldSelector=${encodeURIComponent('__proto__=x')}`), 400)
  })

  it.each(['garbage', '-1', '99999999999999999999', '1e9', '0x10', ' 1'])('resourceVersion=%j on a watch is refused or answered, never hangs the request', async (rv) => {
    const ac = new AbortController()
    const res = await fetch(`${base}/api/v1/pods?watch=true&resourceVersion=${encodeURIComponent(rv)}`, {signal: AbortSignal.any([ac.signal, AbortSignal.timeout(10_000)])})
    if (res.status === 200) {
      // A number it cannot serve from: an Expired event and the end of the stream.
      const text = await res.text()
      expect(text).toMatch(/"type":"ERROR".*Expired/)
    } else {
      expect(res.status).toBe(400)
      expect(((await res.json()) as {kind: string}).kind).toBe('Status')
    }
    ac.abort()
  })

  it.each(['-1', 'garbage', '1e9'])('resourceVersion=%j on a list is refused with a Status, as no version this node hands out', async (rv) => {
    expectStatus(await get(`/api/v1/pods?resourceVersion=${rv}`), 400)
  })

  it.each([
    ['tailLines', '-1'],
    ['tailLines', '99999999999999999'],
    ['tailLines', 'ten'],
    ['sinceSeconds', '-5'],
    ['sinceSeconds', '0'],
    ['sinceSeconds', '999999999999999'],
    ['sinceSeconds', '1.5'],
    ['limitBytes', '0'],
    ['limitBytes', '-1'],
    ['limitBytes', '1e99'],
    ['sinceTime', 'yesterday'],
    ['container', '../main'],
    ['container', '..%2f..%2fetc'],
    ['container', 'main/../../x'],
    ['container', 'MAIN'],
  ])('log %s=%s is refused with 400 before any log is read', async (key, value) => {
    expectStatus(await get(`/api/v1/namespaces/default/pods/web/log?${key}=${encodeURIComponent(value)}`), 400)
    expect(logCalls).toEqual([])
  })

  it('timeoutSeconds beyond int64 is refused, as Go reads it; of 10^15 s it does not make a watch unbounded or the timer fire at once', async () => {
    expectStatus(await get('/api/v1/pods?watch=true&timeoutSeconds=9223372036854775808'), 400)
    const ac = new AbortController()
    const res = await fetch(`${base}/api/v1/pods?watch=true&timeoutSeconds=999999999999999`, {signal: ac.signal})
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let text = ''
    while (text.split('\n').length < 3) text += new TextDecoder().decode((await reader.read()).value)
    // Still open a moment later: a timer that overflowed would have ended it at once.
    await new Promise((r) => setTimeout(r, 300))
    const more = await Promise.race([reader.read().then((r) => (r.done ? 'ended' : 'data')), new Promise((r) => setTimeout(() => r('open'), 300))])
    expect(more).not.toBe('ended')
    ac.abort()
  })
})

describe('writes are refused at once, and their bodies are never held', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s → 405 Status with Allow', async (method) => {
    const a = await get('/api/v1/namespaces/default/pods/web', method === 'DELETE' ? {method} : {method, body: '{"kind":"Pod"}'})
    expectStatus(a, 405)
    expect(a.body.reason).toBe('MethodNotAllowed')
  })

  it('a 100 MB POST is answered 405 promptly, and memory stays bounded', async () => {
    const rss0 = process.memoryUsage().rss
    const answer = await new Promise<{head: string; ms: number}>((resolve, reject) => {
      const started = performance.now()
      const socket = connect(server.port, '127.0.0.1')
      let head = ''
      const timer = setTimeout(() => (socket.destroy(), reject(new Error('no answer within 20 s'))), 20_000)
      socket.on('error', () => {})
      socket.on('data', (d: Buffer) => {
        head += d.toString('latin1')
        if (head.includes('\r\n\r\n')) {
          clearTimeout(timer)
          socket.destroy()
          resolve({head, ms: performance.now() - started})
        }
      })
      socket.on('connect', () => {
        const total = 100 * 1024 * 1024
        socket.write(`POST /api/v1/namespaces/default/pods HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`)
        const chunk = Buffer.alloc(1024 * 1024, 0x61)
        let sent = 0
        const pump = (): void => {
          while (sent < total && !socket.destroyed) {
            sent += chunk.length
            if (!socket.write(chunk)) return void socket.once('drain', pump)
          }
        }
        pump()
      })
    })
    expect(answer.head).toMatch(/^HTTP\/1\.1 405/)
    expect(answer.ms).toBeLessThan(15_000)
    // The client here and the server share this process: 100 MB held would show.
    expect(process.memoryUsage().rss - rss0).toBeLessThan(64 * 1024 * 1024)
    expect((await get('/api/v1/pods')).status).toBe(200)
  })
})

describe('long-lived streams', () => {
  it('holds at most 32 watches; clients that vanish free theirs', async () => {
    const controllers: AbortController[] = []
    for (let i = 0; i < KUBE_API_LIMITS.maxStreams; i++) {
      const ac = new AbortController()
      const res = await fetch(`${base}/api/v1/pods?watch=true`, {signal: ac.signal})
      expect(res.status).toBe(200)
      controllers.push(ac)
    }
    for (let i = 0; i < 3; i++) expectStatus(await get('/api/v1/pods?watch=true'), 429)
    expectStatus(await get('/api/v1/namespaces/default/pods/web/log?follow=true'), 429)
    // Lists are not streams: still served.
    expect((await get('/api/v1/pods')).status).toBe(200)
    for (const ac of controllers) ac.abort()
    // Every stream freed once its client is gone (polled: the close arrives asynchronously).
    const deadline = Date.now() + 10_000
    let freed = false
    while (!freed && Date.now() < deadline) {
      const ac = new AbortController()
      const res = await fetch(`${base}/api/v1/pods?watch=true`, {signal: ac.signal}).catch(() => undefined)
      freed = res?.status === 200
      ac.abort()
      if (!freed) await new Promise((r) => setTimeout(r, 100))
    }
    expect(freed).toBe(true)
    const opened: AbortController[] = []
    for (let i = 0; i < KUBE_API_LIMITS.maxStreams; i++) {
      const ac = new AbortController()
      opened.push(ac)
      const res = await fetch(`${base}/api/v1/pods?watch=true`, {signal: ac.signal})
      if (res.status !== 200) {
        // The stream of the probe above may not be released yet: one more chance.
        await new Promise((r) => setTimeout(r, 500))
        const again = await fetch(`${base}/api/v1/pods?watch=true`, {signal: ac.signal})
        expect(again.status).toBe(200)
      }
    }
    for (const ac of opened) ac.abort()
  })

  it('a raw socket that opens 40 watches and vanishes leaves no stream behind', async () => {
    const sockets = Array.from({length: 40}, () => connect(server.port, '127.0.0.1'))
    for (const s of sockets) {
      s.on('error', () => {})
      s.write('GET /api/v1/pods?watch=true HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    }
    await new Promise((r) => setTimeout(r, 500))
    for (const s of sockets) s.destroy()
    const deadline = Date.now() + 10_000
    let status = 0
    while (Date.now() < deadline) {
      const ac = new AbortController()
      status = (await fetch(`${base}/api/v1/pods?watch=true`, {signal: ac.signal})).status
      ac.abort()
      if (status === 200) break
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(status).toBe(200)
  })

  it('a watcher that never reads is let go instead of buffered for without bound', async () => {
    // 31 quiet watches (their selector matches nothing) and one that never reads fill every slot;
    // large pods then change every poll. The stuck one must be dropped, freeing its slot.
    const quiet: AbortController[] = []
    for (let i = 0; i < KUBE_API_LIMITS.maxStreams - 1; i++) {
      const ac = new AbortController()
      expect((await fetch(`${base}/api/v1/pods?watch=true&labelSelector=app%3Dnone`, {signal: ac.signal})).status).toBe(200)
      quiet.push(ac)
    }
    const socket = connect(server.port, '127.0.0.1')
    socket.on('error', () => {})
    socket.pause()
    socket.write('GET /api/v1/pods?watch=true HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await new Promise((r) => setTimeout(r, 500))
    expect(await watchStatus()).toBe(429)
    const big = 'x'.repeat(64 * 1024)
    const rss0 = process.memoryUsage().rss
    const deadline = Date.now() + 40_000
    let status = 429
    for (let generation = 1; status !== 200 && Date.now() < deadline; generation++) {
      pods = Array.from({length: 20}, (_, i) => {
        const p = pod(`p${i}`)
        return {...p, metadata: {...p.metadata, annotations: {gen: String(generation), big}}}
      })
      await new Promise((r) => setTimeout(r, KUBE_API_LIMITS.podPollMs + 200))
      // Kernel and Node socket buffers are far below this; a queue without bound is not.
      expect(process.memoryUsage().rss - rss0).toBeLessThan(256 * 1024 * 1024)
      status = await watchStatus()
    }
    socket.destroy()
    for (const ac of quiet) ac.abort()
    expect(status).toBe(200)
  })
})

/** The status a new watch gets (its stream, if any, is given back at once). */
async function watchStatus(): Promise<number> {
  const ac = new AbortController()
  const res = await fetch(`${base}/api/v1/pods?watch=true&labelSelector=app%3Dnone`, {signal: ac.signal})
  ac.abort()
  if (res.status === 200) {
    // Wait until the server has seen this client go, so the next probe is not refused for it.
    await new Promise((r) => setTimeout(r, 200))
  }
  return res.status
}

describe('slow and remote clients', () => {
  it('a slowloris sending headers a byte at a time is cut off on the plain and the TLS port, and others are served meanwhile', async () => {
    const tls = await startApiTls({address: '127.0.0.1', certificate: selfSignedCertificate({ips: ['127.0.0.1'], dnsNames: [], now: new Date(), days: 1}), api, logger: silentLogger})
    try {
      // 600 bytes 100 ms apart: a minute of headers that never end.
      const parts = Array.from('GET /api/v1/pods HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'a'.repeat(552))
      const slow = [rawRequest(server.port, parts, {gapMs: 100, waitMs: 50_000}), rawRequest(tls.port, parts, {gapMs: 100, waitMs: 50_000, tls: true})]
      expect((await get('/api/v1/pods')).status).toBe(200)
      for (const r of await Promise.all(slow)) {
        // The header timeout (10 s, checked every second) ends it: a 408 or a closed connection,
        // never a served request, after about 110 of its bytes. With Node's default check every
        // 30 s it sent 300 or more.
        expect(r.closed).toBe(true)
        expect(r.status === undefined || r.status === 408).toBe(true)
        expect(r.partsSent).toBeLessThan(250)
      }
    } finally {
      await tls.close()
    }
  }, 60_000)

  it.each(['evil.example', 'evil.example:80', '127.0.0.1.evil.example', 'localhost.evil.example:1', '10.0.0.1', '[::ffff:10.0.0.1]:80', '0.0.0.0'])(
    'a request naming Host %s on loopback is refused 403 (DNS rebinding), /pods aside',
    async (host) => {
      const r = await rawRequest(server.port, `GET /api/v1/namespaces/default/pods/web/log HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
      expect(r.status).toBe(403)
      expect(r.text).toContain('"reason":"Forbidden"')
      expect(logCalls).toEqual([])
    },
  )

  it.each(['127.0.0.1', `127.0.0.1:1234`, 'localhost:1', 'LOCALHOST', '[::1]:1', 'localhost.'])('Host %s is served', async (host) => {
    const r = await rawRequest(server.port, `GET /api/v1/pods HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
    expect(r.status).toBe(200)
  })

  it('with --allow-remote-api any Host is served', async () => {
    api.close()
    await server.close()
    api = createKubeApi({data: data(), logger: silentLogger, now: () => Date.now(), sleep: async () => {}, anyHost: true, credential: TOKEN})
    server = await startServer({address: '127.0.0.1', port: 'ephemeral', healthzPort: 0, handlers: {pods: () => ({}), healthz: () => ({ok: true}), metrics: async () => '', kubeApi: api}, logger: silentLogger})
    const r = await rawRequest(server.port, 'GET /api/v1/pods HTTP/1.1\r\nHost: node1.example:10255\r\nConnection: close\r\n\r\n')
    expect(r.status).toBe(200)
  })

  it('without --allow-remote-api the API answers 403 Status to every request, whatever the Host', async () => {
    api.close()
    await server.close()
    await start('kube-node serves its Kubernetes API on a loopback --address only')
    for (const path of ['/api/v1/pods', '/api/v1/namespaces/default/pods/web/log', '/version', '/apis']) {
      const r = await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n`)
      expect(r.status).toBe(403)
      expect(r.text).toContain('"kind":"Status"')
    }
    const r = await rawRequest(server.port, 'POST /api/v1/namespaces/default/pods HTTP/1.1\r\nHost: 10.0.0.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello')
    expect(r.status).toBe(403)
    expect(logCalls).toEqual([])
  })
})

describe('nothing secret beyond what /pods shows', () => {
  it('a pod whose env comes from a Secret shows the reference, never a value, exactly as /pods does', async () => {
    pods = [
      pod('web', {
        containers: [
          {
            name: 'main',
            image: 'busybox',
            env: [
              {name: 'PASSWORD', valueFrom: {secretKeyRef: {name: 'db', key: 'password'}}},
              {name: 'PLAIN', value: 'literal'},
            ],
          },
        ],
      }),
    ]
    const fromPods = (await get('/pods')).text
    for (const path of ['/api/v1/pods', '/api/v1/namespaces/default/pods/web']) {
      const a = await get(path)
      expect(a.status).toBe(200)
      const served = JSON.parse(a.text) as Pod | {items: Pod[]}
      const p = 'items' in served ? served.items[0]! : served
      expect(p.spec?.containers[0]?.env).toEqual(pods[0]!.spec!.containers[0]!.env)
      // The API adds metadata only (resourceVersion, creationTimestamp): the spec is /pods' own.
      expect(JSON.stringify(p.spec)).toBe(JSON.stringify((JSON.parse(fromPods) as {items: Pod[]}).items[0]!.spec))
    }
    // The Table form shows no env at all.
    const t = await get('/api/v1/pods', {headers: {accept: 'application/json;as=Table;v=v1;g=meta.k8s.io'}})
    expect(t.text).not.toContain('secretKeyRef')
    expect(t.text).not.toContain('literal')
  })
})
