// CRI endpoint strings as crictl and the kubelet accept them (`--runtime-endpoint`):
// `unix:///path`, `unix:/path`, a bare absolute `/path` (treated as a unix socket, the kubelet's
// fallback), and `tcp://host:port`. Pure: turns the flag into a gRPC target or says what is wrong.
import {InvalidInputError} from '../../util/errors.js'

export interface Endpoint {
  protocol: 'unix' | 'tcp'
  /** Socket path for unix, `host:port` for tcp. */
  address: string
  /** The target string @grpc/grpc-js understands. */
  target: string
}

function bad(endpoint: string, why: string): InvalidInputError {
  return new InvalidInputError(`invalid CRI endpoint ${JSON.stringify(endpoint)}: ${why}`)
}

function unixEndpoint(endpoint: string, path: string): Endpoint {
  if (!path.startsWith('/')) throw bad(endpoint, 'the unix socket path must be absolute')
  // Collapse `unix:////x` style slashes so the target has exactly one leading slash.
  const clean = '/' + path.replace(/^\/+/, '')
  return {protocol: 'unix', address: clean, target: `unix://${clean}`}
}

export function parseEndpoint(endpoint: string): Endpoint {
  const e = endpoint.trim()
  if (e === '') throw bad(endpoint, 'it is empty')
  if (e.startsWith('/')) return unixEndpoint(endpoint, e)
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/.exec(e)
  if (!m) throw bad(endpoint, 'expected unix:///path/to/socket or tcp://host:port')
  const scheme = m[1]!.toLowerCase()
  const rest = m[2]!
  if (scheme === 'unix') {
    // `unix:///p` → `/p`; `unix:/p` → `/p`; `unix://p` names a host, which a socket cannot have.
    if (rest.startsWith('//') && !rest.startsWith('///')) throw bad(endpoint, 'the unix socket path must be absolute')
    return unixEndpoint(endpoint, rest.startsWith('//') ? rest.slice(2) : rest)
  }
  if (scheme === 'tcp') {
    const hostPort = rest.replace(/^\/\//, '').replace(/\/+$/, '')
    const hp = /^(\[[0-9a-fA-F:.]+\]|[^:/\s]+):(\d{1,5})$/.exec(hostPort)
    if (!hp || Number(hp[2]) === 0 || Number(hp[2]) > 65535) throw bad(endpoint, 'expected tcp://host:port')
    return {protocol: 'tcp', address: hostPort, target: `dns:${hostPort}`}
  }
  throw bad(endpoint, `protocol ${JSON.stringify(scheme)} is not supported; use unix or tcp`)
}
