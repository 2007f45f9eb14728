import {createServer, type Server, type ServerResponse} from 'node:http'
import {connect, type Socket} from 'node:net'
import {afterEach, describe, expect, it} from 'vitest'
import {limitSockets} from '../../../src/server/socket-limit.js'

let server: Server
afterEach(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))))

async function start(max: number, handler: (res: ServerResponse) => void): Promise<number> {
  server = createServer((_req, res) => handler(res))
  limitSockets(server, max)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return (server.address() as {port: number}).port
}

interface Client {
  socket: Socket
  reply: Promise<string>
  closed: () => boolean
}

function client(port: number, request: string): Client {
  const socket = connect(port, '127.0.0.1')
  let closed = false
  let text = ''
  const reply = new Promise<string>((resolve) => {
    socket.on('data', (d: Buffer) => {
      text += d.toString()
      resolve(text)
    })
    socket.on('close', () => resolve(text))
  })
  socket.on('close', () => (closed = true))
  socket.on('error', () => undefined)
  socket.on('connect', () => socket.write(request))
  return {socket, reply, closed: () => closed}
}

const keepAlive = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n'
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 50))

describe('limitSockets', () => {
  it('at the bound, a new connection closes the longest idle socket and is served', async () => {
    const port = await start(3, (res) => res.end('ok'))
    const idle = [client(port, keepAlive)]
    await idle[0]!.reply
    await settle()
    idle.push(client(port, keepAlive), client(port, keepAlive))
    await Promise.all(idle.map((c) => c.reply))
    const fresh = client(port, keepAlive)
    expect(await fresh.reply).toMatch(/^HTTP\/1\.1 200/)
    await settle()
    expect(idle.map((c) => c.closed())).toEqual([true, false, false])
    for (const c of [...idle, fresh]) c.socket.destroy()
  })

  it('never closes a socket whose request is in progress: with every socket busy, the new one is refused', async () => {
    const port = await start(2, () => undefined)
    const busy = [client(port, keepAlive), client(port, keepAlive)]
    await settle()
    const refused = client(port, keepAlive)
    expect(await refused.reply).toBe('')
    expect(refused.closed()).toBe(true)
    expect(busy.map((c) => c.closed())).toEqual([false, false])
    for (const c of busy) c.socket.destroy()
  })
})
