import * as http from 'node:http'
import * as http2 from 'node:http2'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {runGrpc} from '../../../src/prober/handlers.js'
import {close, closedPort, listen} from './listen.js'

// A gRPC health server by hand: the request's service name picks the answer.
function grpcFrame(body: Buffer): Buffer {
  const prefix = Buffer.alloc(5)
  prefix.writeUInt32BE(body.length, 1)
  return Buffer.concat([prefix, body])
}
const STATUS: Record<string, number> = {'': 1, web: 1, maintenance: 2}

let grpcServer: http2.Http2Server
let grpcPort: number
let plainServer: http.Server
let plainPort: number
let seenUserAgent = ''
let seenPath = ''

beforeAll(async () => {
  grpcServer = http2.createServer()
  grpcServer.on('stream', (stream, headers) => {
    seenUserAgent = String(headers['user-agent'])
    seenPath = String(headers[':path'])
    const chunks: Buffer[] = []
    stream.on('data', (c: Buffer) => chunks.push(c))
    stream.on('end', () => {
      const req = Buffer.concat(chunks)
      const service = req.length > 7 ? req.subarray(7).toString() : ''
      if (service === 'hang') return
      if (service === 'html') return void stream.respond({':status': 404, 'content-type': 'text/html'}, {endStream: true})
      if (service === 'old') {
        stream.respond({':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12', 'grpc-message': 'no Health'}, {endStream: true})
        return
      }
      const status = STATUS[service]
      if (status === undefined) {
        stream.respond({':status': 200, 'content-type': 'application/grpc', 'grpc-status': '5', 'grpc-message': 'unknown%20service'}, {endStream: true})
        return
      }
      stream.respond({':status': 200, 'content-type': 'application/grpc'}, {waitForTrailers: true})
      stream.on('wantTrailers', () => stream.sendTrailers({'grpc-status': '0'}))
      stream.end(grpcFrame(Buffer.from([0x08, status])))
    })
  })
  grpcPort = await listen(grpcServer)
  plainServer = http.createServer((_req, res) => res.end('not grpc'))
  plainPort = await listen(plainServer)
})
afterAll(async () => {
  await close(grpcServer)
  await close(plainServer)
})

const target = {podIP: '127.0.0.1', containerId: 'c', ports: []}

describe('runGrpc', () => {
  it.each([
    ['no service name', undefined, 'Success', 'service healthy'],
    ['a serving service', 'web', 'Success', 'service healthy'],
    ['a service not serving', 'maintenance', 'Failure', 'service unhealthy (responded with "NOT_SERVING")'],
    ['an unknown service', 'other', 'Failure', 'rpc error: code = NotFound desc = unknown service'],
    ['a server without the health service', 'old', 'Failure', 'this server does not implement the grpc health protocol (grpc.health.v1.Health): no Health'],
    ['an HTTP/2 server that is not gRPC', 'html', 'Failure', 'rpc error: code = Unknown desc = unexpected HTTP status code 404'],
  ] as const)('%s → %s', async (_name, service, result, output) => {
    const action = service === undefined ? {port: grpcPort} : {port: grpcPort, service}
    expect(await runGrpc(action, target, 1000)).toEqual({result, output})
  })

  it('calls grpc.health.v1.Health/Check as kube-probe', async () => {
    await runGrpc({port: grpcPort}, target, 1000)
    expect(seenPath).toBe('/grpc.health.v1.Health/Check')
    expect(seenUserAgent).toBe('kube-probe/1.33')
  })

  it('fails when the health rpc does not complete in time', async () => {
    const out = await runGrpc({port: grpcPort, service: 'hang'}, target, 200)
    expect(out).toEqual({result: 'Failure', output: 'timeout: health rpc did not complete within 0.2s'})
  })

  it('fails against a server that does not speak gRPC', async () => {
    const out = await runGrpc({port: plainPort}, target, 1000)
    expect(out.result).toBe('Failure')
  })

  it('fails when nothing listens', async () => {
    const out = await runGrpc({port: await closedPort()}, target, 1000)
    expect(out.result).toBe('Failure')
    expect(out.output).toMatch(/failed to connect service "127.0.0.1:\d+"/)
  })
})
