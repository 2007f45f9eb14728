import * as net from 'node:net'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {runTcp} from '../../../src/prober/handlers.js'
import type {HandlerTarget} from '../../../src/prober/handlers.js'
import {close, closedPort, listen} from './listen.js'

let server: net.Server
let port: number
beforeAll(async () => {
  server = net.createServer((socket) => socket.end())
  port = await listen(server)
})
afterAll(() => close(server))

const target = (): HandlerTarget => ({podIP: '127.0.0.1', containerId: 'c', ports: [{name: 'db', containerPort: port}]})

it('succeeds when the port accepts a connection', async () => {
  expect(await runTcp({port}, target(), 1000)).toEqual({result: 'Success', output: ''})
})

it('resolves a named port', async () => {
  expect((await runTcp({port: 'db'}, target(), 1000)).result).toBe('Success')
})

it('fails when nothing listens, saying where it dialled', async () => {
  const closed = await closedPort()
  const out = await runTcp({port: closed}, target(), 1000)
  expect(out.result).toBe('Failure')
  expect(out.output).toContain(`dial tcp 127.0.0.1:${closed}`)
})

it('errors on an unknown port name or an impossible port', async () => {
  expect((await runTcp({port: 'nope'}, target(), 1000)).result).toBe('Error')
  expect(await runTcp({port: 70000}, target(), 1000)).toEqual({result: 'Error', output: 'invalid port number: 70000'})
})
