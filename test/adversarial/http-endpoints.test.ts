// Hostile requests against watch's HTTP endpoints: each gets a 4xx or a closed connection, and
// the server keeps answering /healthz afterwards. First against the server in-process (fast, every
// case), then against a real `kube-node watch` process (the `GET //` that used to kill it, and a
// flood of scrapes that would have become a flood of runtime calls).
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startServer, type RunningServer} from '../../src/server/server.js'
import {createLogger} from '../../src/util/logger.js'
import {makeDirs} from '../e2e/support.js'
import {startWatchAs, type Watch} from './support/daemon.js'
import {healthz, rawRequest} from './support/raw-http.js'

const TLS_CLIENT_HELLO = Buffer.from('160301020001000100030300000000000000000000000000000000000000000000000000', 'hex')

// [case, payload, what is acceptable]
const HOSTILE: Array<[string, () => string | Buffer | Array<string | Buffer>, 'client-error' | 'not-found-or-bad']> = [
  ['GET // (crashed the daemon before)', () => 'GET // HTTP/1.1\r\nHost: x\r\n\r\n', 'client-error'],
  ['GET //pods', () => 'GET //pods HTTP/1.1\r\nHost: x\r\n\r\n', 'client-error'],
  ['a bad percent escape', () => 'GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n', 'not-found-or-bad'],
  ['absolute-form target', () => 'GET http://evil/pods HTTP/1.1\r\nHost: x\r\n\r\n', 'client-error'],
  ['OPTIONS *', () => 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n', 'client-error'],
  ['CONNECT', () => 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: x\r\n\r\n', 'client-error'],
  ['an unknown method', () => 'BREW /pods HTTP/1.1\r\nHost: x\r\n\r\n', 'client-error'],
  ['DELETE', () => 'DELETE /pods HTTP/1.1\r\nHost: x\r\n\r\n', 'client-error'],
  ['a malformed request line', () => 'GET\r\n\r\n', 'client-error'],
  ['binary garbage', () => Buffer.from(Array.from({length: 4096}, (_, i) => (i * 37) % 256)), 'client-error'],
  ['a TLS ClientHello', () => TLS_CLIENT_HELLO, 'client-error'],
  ['a 100 KiB URL', () => `GET /${'a'.repeat(100 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`, 'client-error'],
  ['10 000 headers', () => `GET /healthz HTTP/1.1\r\nHost: x\r\n${'X-A: b\r\n'.repeat(10_000)}\r\n`, 'client-error'],
  ['one 1 MiB header', () => `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(1024 * 1024)}\r\n\r\n`, 'client-error'],
  ['a NUL in the path', () => 'GET /pods\0 HTTP/1.1\r\nHost: x\r\n\r\n', 'client-error'],
  ['a 10 MiB body on GET', () => [`GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`, Buffer.alloc(1024 * 1024)], 'not-found-or-bad'],
  ['a chunked body that never ends', () => ['GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n', 'ffffffff\r\n', 'x'.repeat(1000)], 'not-found-or-bad'],
  ['100 pipelined requests', () => 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(100), 'not-found-or-bad'],
  ['request smuggling (CL and TE)', () => 'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'client-error'],
]

function acceptable(kind: 'client-error' | 'not-found-or-bad', reply: {status: number | undefined; closed: boolean}): boolean {
  if (kind === 'client-error') return reply.status === undefined ? reply.closed : reply.status >= 400 && reply.status < 500
  // The request itself may be served (e.g. /healthz) as long as nothing breaks.
  return reply.status === undefined ? reply.closed : reply.status < 500
}

describe('HTTP endpoints in-process', () => {
  let server: RunningServer
  const logged: string[] = []
  beforeAll(async () => {
    const logger = createLogger({format: 'text', verbosity: 0, write: (line) => void logged.push(line)})
    server = await startServer({
      address: '127.0.0.1',
      port: 'ephemeral',
      healthzPort: 0,
      logger,
      handlers: {
        pods: () => {
          throw new Error('a handler that throws')
        },
        healthz: () => ({ok: true}),
        metrics: async () => '',
      },
    })
  })
  afterAll(() => server.close())

  it.each(HOSTILE)('%s: a 4xx or a closed connection, and /healthz still answers', async (_name, payload, kind) => {
    const reply = await rawRequest(server.port, payload())
    expect(acceptable(kind, reply), `got ${reply.status ?? 'no status'}: ${reply.text.slice(0, 200)}`).toBe(true)
    expect((await healthz(server.port)).status).toBe(200)
  })

  it('a handler that throws answers 500 and the server lives on', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/pods`)
    expect(res.status).toBe(500)
    expect((await healthz(server.port)).status).toBe(200)
  })

  it.each([
    ['a rebinding name', 'evil.example:80', 403],
    ['a LAN address', '192.168.1.5', 403],
    ['localhost', 'localhost:10255', 500],
    ['127.0.0.1', '127.0.0.1', 500],
    ['[::1]', '[::1]:10255', 500],
  ])('/pods on a loopback listener with Host %s: %s', async (_name, host, status) => {
    // 500 is the throwing handler answering: the request got through the Host check.
    const reply = await rawRequest(server.port, `GET /pods HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
    expect(reply.status).toBe(status)
  })

  it('/metrics refuses a foreign Host too, while /healthz answers it', async () => {
    const metrics = await rawRequest(server.port, 'GET /metrics HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n')
    expect(metrics.status).toBe(403)
    expect(metrics.text).toContain('loopback host names only')
    const health = await rawRequest(server.port, 'GET /healthz HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n')
    expect(health.status).toBe(200)
  })

  it('on a non-loopback address (the operator chose to expose it) any Host is served', async () => {
    const logger = createLogger({format: 'text', verbosity: 0, write: () => undefined})
    const s = await startServer({address: '0.0.0.0', port: 'ephemeral', healthzPort: 0, logger, handlers: {pods: () => ({items: []}), healthz: () => ({ok: true}), metrics: async () => ''}})
    try {
      const reply = await rawRequest(s.port, 'GET /pods HTTP/1.1\r\nHost: node-7.example:10255\r\nConnection: close\r\n\r\n')
      expect(reply.status).toBe(200)
    } finally {
      await s.close()
    }
  })

  it('a slow-loris client is cut off and does not block others', async () => {
    const slow = rawRequest(server.port, ['GET /healthz HTTP/1.1\r\n', 'X-A: b\r\n', 'X-A: b\r\n'], {gapMs: 500, waitMs: 2000})
    expect((await healthz(server.port)).ms).toBeLessThan(1000)
    await slow
  })

  it('warns once when it listens on a non-loopback address', async () => {
    const lines: string[] = []
    const logger = createLogger({format: 'text', verbosity: 0, write: (line) => void lines.push(line)})
    const s = await startServer({address: '0.0.0.0', port: 'ephemeral', healthzPort: 0, logger, handlers: {pods: () => ({}), healthz: () => ({ok: true}), metrics: async () => ''}})
    await s.close()
    expect(lines.filter((l) => l.includes('no authentication'))).toHaveLength(1)
  })
})

describe('HTTP endpoints of a real kube-node watch', () => {
  const dirs = makeDirs()
  const manifests = join(dirs.work, 'manifests')
  let watch: Watch

  beforeAll(async () => {
    mkdirSync(manifests, {recursive: true})
    // Its own node name: never touches other tests' pods.
    watch = await startWatchAs('adv-http', dirs, manifests)
    const deadline = Date.now() + 30_000
    for (;;) {
      const ok = await healthz(watch.port).then((h) => h.status === 200, () => false)
      if (ok) break
      if (Date.now() > deadline || watch.exited()) throw new Error(`watch did not start: ${watch.stderr()}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  })
  afterAll(async () => {
    await watch.stop()
    dirs.cleanup()
  })

  it('any local user scraping /metrics/resource as fast as it can makes the runtime list container stats at most once a second', async () => {
    const calls = async (): Promise<number> => {
      const text = await (await fetch(`http://127.0.0.1:${watch.port}/metrics`)).text()
      return Number(/^kubelet_runtime_operations_total\{operation_type="list_container_stats"\} (\d+)$/m.exec(text)?.[1] ?? 0)
    }
    const before = await calls()
    const started = performance.now()
    let scrapes = 0
    await Promise.all(
      Array.from({length: 16}, async () => {
        while (performance.now() - started < 3000) {
          const res = await fetch(`http://127.0.0.1:${watch.port}/metrics/resource`)
          expect(res.status).toBe(200)
          await res.text()
          scrapes++
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    const made = (await calls()) - before
    console.log(`${scrapes} scrapes of /metrics/resource in ${seconds.toFixed(1)} s: ${made} ListContainerStats calls`)
    expect(scrapes).toBeGreaterThan(100)
    expect(made).toBeLessThanOrEqual(Math.ceil(seconds) + 1)
  })

  it.each(HOSTILE)('%s: the daemon survives', async (_name, payload, kind) => {
    const reply = await rawRequest(watch.port, payload())
    expect(acceptable(kind, reply), `got ${reply.status ?? 'no status'}: ${reply.text.slice(0, 200)}`).toBe(true)
    expect(watch.exited(), watch.stderr()).toBe(false)
    expect((await healthz(watch.port)).status).toBe(200)
  })
})
