import * as http from 'node:http'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {runHttpGet} from '../../../src/prober/handlers.js'
import type {HandlerTarget} from '../../../src/prober/handlers.js'
import {close, closedPort, listen} from './listen.js'

let server: http.Server
let port: number
let seen: http.IncomingHttpHeaders = {}
const target = (): HandlerTarget => ({podIP: '127.0.0.1', containerId: 'c1', ports: [{name: 'web', containerPort: port}]})

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen = req.headers
    const url = new URL(req.url ?? '/', 'http://x')
    const status = Number(url.searchParams.get('status') ?? '200')
    if (url.pathname === '/hang') return // never answers
    if (url.pathname === '/here') return res.writeHead(302, {location: '/ok?status=200'}).end()
    if (url.pathname === '/away') return res.writeHead(302, {location: 'http://example.invalid/'}).end('moved')
    if (url.pathname === '/loop') return res.writeHead(302, {location: '/loop'}).end()
    res.writeHead(status).end(`body ${url.pathname}`)
  })
  port = await listen(server)
})
afterAll(() => close(server))

describe('runHttpGet', () => {
  it.each([
    [200, 'Success'],
    [204, 'Success'],
    [399, 'Success'],
    [400, 'Failure'],
    [500, 'Failure'],
  ] as const)('status %i → %s', async (status, result) => {
    const out = await runHttpGet({port, path: `/ok?status=${status}`}, target(), 1000)
    expect(out.result).toBe(result)
    if (result === 'Failure') expect(out.output).toBe(`HTTP probe failed with statuscode: ${status}`)
  })

  it('returns the body as output on success', async () => {
    expect(await runHttpGet({port, path: '/healthz'}, target(), 1000)).toEqual({result: 'Success', output: 'body /healthz'})
  })

  it('resolves a named port from the container ports', async () => {
    expect((await runHttpGet({port: 'web', path: '/'}, target(), 1000)).result).toBe('Success')
  })

  it('errors on a port name the container does not have', async () => {
    const out = await runHttpGet({port: 'nope'}, target(), 1000)
    expect(out.result).toBe('Error')
    expect(out.output).toContain('"nope"')
  })

  it('sends kube-probe User-Agent and Accept */* by default, and the probe headers', async () => {
    await runHttpGet({port, path: '/', httpHeaders: [{name: 'X-Token', value: 'abc'}]}, target(), 1000)
    expect(seen['user-agent']).toBe('kube-probe/1.33')
    expect(seen['accept']).toBe('*/*')
    expect(seen['x-token']).toBe('abc')
  })

  it('lets the probe override User-Agent, Accept and Host', async () => {
    const httpHeaders = [
      {name: 'User-Agent', value: 'mine'},
      {name: 'Accept', value: 'text/plain'},
      {name: 'Host', value: 'svc.local'},
    ]
    await runHttpGet({port, path: '/', httpHeaders}, target(), 1000)
    expect(seen).toMatchObject({'user-agent': 'mine', accept: 'text/plain', host: 'svc.local'})
  })

  it('follows a redirect on the same host', async () => {
    expect(await runHttpGet({port, path: '/here'}, target(), 1000)).toEqual({result: 'Success', output: 'body /ok'})
  })

  it('does not follow a redirect to another host, and succeeds with a warning', async () => {
    const out = await runHttpGet({port, path: '/away'}, target(), 1000)
    expect(out).toEqual({result: 'Success', output: 'Probe terminated redirects, Response body: moved', warning: true})
  })

  it('fails after 10 redirects', async () => {
    const out = await runHttpGet({port, path: '/loop'}, target(), 2000)
    expect(out.result).toBe('Failure')
    expect(out.output).toContain('stopped after 10 redirects')
  })

  it('fails when the server does not answer within the timeout', async () => {
    const out = await runHttpGet({port, path: '/hang'}, target(), 200)
    expect(out.result).toBe('Failure')
    expect(out.output).toMatch(/deadline exceeded \(timeout 0.2s\)/)
  })

  it('fails when nothing listens', async () => {
    const out = await runHttpGet({port: await closedPort(), path: '/'}, target(), 1000)
    expect(out.result).toBe('Failure')
    expect(out.output).toMatch(/ECONNREFUSED/)
  })

  it('uses the probe host instead of the pod IP', async () => {
    const out = await runHttpGet({port, host: '127.0.0.1', path: '/'}, {...target(), podIP: '192.0.2.1'}, 1000)
    expect(out.result).toBe('Success')
  })
})
