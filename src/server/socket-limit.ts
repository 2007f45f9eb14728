// A bound on open sockets that cannot lock anyone out: when the bound is reached, a new
// connection closes the socket that has been idle longest (a keep-alive socket between requests,
// or one still sending its headers) instead of being refused, so idle or slow clients, however
// many, never make /healthz or the API silent. Only when every socket has a request in progress
// is the new connection closed.
import type {IncomingMessage, Server, ServerResponse} from 'node:http'
import type {Socket} from 'node:net'

interface State {
  /** Requests in progress on the socket. */
  busy: number
  /** When it last became idle (or connected). */
  idleSince: number
}

export function limitSockets(server: Server, max: number, now: () => number = Date.now): void {
  const sockets = new Map<Socket, State>()
  server.on('connection', (socket: Socket) => {
    if (sockets.size >= max) {
      const idle = longestIdle(sockets)
      if (!idle) return void socket.destroy()
      sockets.delete(idle)
      idle.destroy()
    }
    sockets.set(socket, {busy: 0, idleSince: now()})
    socket.once('close', () => sockets.delete(socket))
  })
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const state = sockets.get(req.socket)
    if (!state) return
    state.busy++
    res.once('close', () => {
      state.busy--
      state.idleSince = now()
    })
  })
}

function longestIdle(sockets: ReadonlyMap<Socket, State>): Socket | undefined {
  let best: Socket | undefined
  let since = Infinity
  for (const [socket, s] of sockets) {
    if (s.busy === 0 && s.idleSince < since) {
      best = socket
      since = s.idleSince
    }
  }
  return best
}
