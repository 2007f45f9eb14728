import {afterEach, describe, expect, it} from 'vitest'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {startServer, type RunningServer, type ServerHandlers} from '../../../src/server/server.js'
import {silentLogger} from '../../../src/util/logger.js'
import {ListenError} from '../../../src/util/errors.js'

let running: RunningServer | undefined

afterEach(async () => {
  await running?.close()
  running = undefined
})

function handlers(over: Partial<ServerHandlers> = {}): ServerHandlers {
  return {
    pods: () => ({apiVersion: 'v1', kind: 'PodList', metadata: {resourceVersion: ''}, items: []}),
    healthz: () => ({ok: true}),
    metrics: async () => '# TYPE kubelet_running_pods gauge\nkubelet_running_pods 0\n',
    ...over,
  }
}

async function start(over: Partial<ServerHandlers> = {}, healthzPort: number | 'ephemeral' = 'ephemeral'): Promise<RunningServer> {
  running = await startServer({address: '127.0.0.1', port: 'ephemeral', healthzPort, handlers: handlers(over), logger: silentLogger})
  return running
}

const get = (port: number, path: string, init?: RequestInit): Promise<Response> => fetch(`http://127.0.0.1:${port}${path}`, init)

describe('startServer', () => {
  it('answers /healthz with ok on both ports', async () => {
    const s = await start()
    expect(s.port).toBeGreaterThan(0)
    expect(s.healthzPort).toBeGreaterThan(0)
    expect(s.healthzPort).not.toBe(s.port)
    for (const port of [s.port, s.healthzPort]) {
      const res = await get(port, '/healthz')
      expect(res.status).toBe(200)
      expect(await res.text()).toBe('ok')
    }
  })

  it('fails /healthz with 500 and the reason when the PLEG or sync loop is stuck', async () => {
    const s = await start({healthz: () => ({ok: false, reason: 'pleg was last seen active 3m0s ago; threshold is 3m0s'})})
    const res = await get(s.healthzPort, '/healthz')
    expect(res.status).toBe(500)
    expect(await res.text()).toContain('pleg was last seen active 3m0s ago')
  })

  it('serves /pods as JSON, awaiting an async handler', async () => {
    const list = {apiVersion: 'v1', kind: 'PodList', metadata: {resourceVersion: ''}, items: [{metadata: {name: 'web-node1'}}]}
    const s = await start({pods: async () => list})
    const res = await get(s.port, '/pods')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual(list)
  })

  it('serves /metrics in the Prometheus text format', async () => {
    const s = await start()
    const res = await get(s.port, '/metrics?x=1')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(await res.text()).toContain('kubelet_running_pods 0')
  })

  it('answers 404 for unknown paths, and the healthz port serves /healthz only', async () => {
    const s = await start()
    expect((await get(s.port, '/nope')).status).toBe(404)
    expect((await get(s.healthzPort, '/pods')).status).toBe(404)
    expect((await get(s.healthzPort, '/metrics')).status).toBe(404)
  })

  it('rejects methods other than GET and HEAD', async () => {
    const s = await start()
    const res = await get(s.port, '/pods', {method: 'POST'})
    expect(res.status).toBe(405)
    const head = await get(s.port, '/healthz', {method: 'HEAD'})
    expect(head.status).toBe(200)
  })

  it('answers 500 when a handler throws, and keeps serving', async () => {
    const s = await start({
      pods: () => {
        throw new Error('cache not ready')
      },
      metrics: () => Promise.reject(new Error('registry broken')),
      healthz: () => {
        throw new Error('no clock')
      },
    })
    const pods = await get(s.port, '/pods')
    expect(pods.status).toBe(500)
    expect(await pods.text()).toContain('cache not ready')
    expect((await get(s.port, '/metrics')).status).toBe(500)
    expect((await get(s.healthzPort, '/healthz')).status).toBe(500)
    expect((await get(s.port, '/nope')).status).toBe(404)
  })

  it('does not listen on a port given as 0', async () => {
    const s = await start({}, 0)
    expect(s.healthzPort).toBe(0)
    expect((await get(s.port, '/healthz')).status).toBe(200)
  })

  it('stops listening on close', async () => {
    const s = await start()
    await get(s.port, '/healthz')
    await s.close()
    running = undefined
    await expect(get(s.port, '/healthz')).rejects.toThrow()
  })

  it('fails with a message naming the flag when the port is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()))
    const taken = (blocker.address() as AddressInfo).port
    try {
      const attempt = startServer({address: '127.0.0.1', port: 'ephemeral', healthzPort: taken, handlers: handlers(), logger: silentLogger})
      await expect(attempt).rejects.toThrow(ListenError)
      await expect(attempt).rejects.toThrow(/--healthz-port/)
    } finally {
      await new Promise((r) => blocker.close(r))
    }
  })
})
