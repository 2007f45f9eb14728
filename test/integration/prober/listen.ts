// Local servers for the handler tests: bound to 127.0.0.1 on an ephemeral port.
import type {AddressInfo, Server} from 'node:net'

export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

export async function close(server: Server): Promise<void> {
  // Drop open (e.g. hanging) connections so close() does not wait for them.
  const s = server as Server & {closeAllConnections?: () => void}
  s.closeAllConnections?.()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const {createServer} = await import('node:net')
  const server = createServer()
  const port = await listen(server)
  await close(server)
  return port
}
