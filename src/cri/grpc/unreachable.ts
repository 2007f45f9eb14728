// A runtime that cannot be reached, in words a user can act on: where kube-node looked, what it
// found there, and how to point it elsewhere. grpc-js says only "No connection established. Last
// error: … Resolution note: " (often with nothing after the note).
import {CriError} from '../../util/errors.js'
import type {Endpoint} from './endpoint.js'

/** How a user points kube-node at another runtime or image service. */
export type EndpointFlag = '--runtime-endpoint' | '--image-endpoint'

const NO_CONNECTION = /^No connection established\b/

/** What a failed connect found, from the system error code in grpc-js's detail. */
function found(detail: string, ep: Endpoint): string {
  const code = /\b(E[A-Z]{2,})\b/.exec(detail)?.[1]
  const unix = ep.protocol === 'unix'
  switch (code) {
    case 'ENOENT':
      return unix ? `there is no socket at ${ep.address}` : `${ep.address} cannot be resolved`
    case 'ECONNREFUSED':
      return unix ? `nothing listens on ${ep.address}` : `nothing listens at ${ep.address}`
    case 'EACCES':
    case 'EPERM':
      return `permission denied on ${ep.address} (run kube-node as a user that may use the runtime, usually root)`
    case 'ENOTSOCK':
      return `${ep.address} is not a socket`
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${ep.address} does not answer`
    default: {
      const last = /Last error:\s*(?:Error:\s*)?(.*?)(?:\.?\s*Resolution note:.*)?$/s.exec(detail)?.[1]?.trim()
      return last ? `the connection failed (${last})` : 'the connection failed'
    }
  }
}

/** The sentence for a call that could not connect; undefined for any other failure. Pure. */
export function unreachableDetail(detail: string, ep: Endpoint, flag: EndpointFlag): string | undefined {
  if (!NO_CONNECTION.test(detail)) return undefined
  const how = flag === '--runtime-endpoint' ? '--runtime-endpoint or CONTAINER_RUNTIME_ENDPOINT' : '--image-endpoint'
  return `cannot reach the container runtime at ${ep.protocol}://${ep.address}: ${found(detail, ep)}; start the runtime (containerd), or point kube-node at it with ${how}`
}

/** The service with each call's connect failure explained (other errors pass unchanged). */
export function explainUnreachable<T extends object>(service: T, ep: Endpoint, flag: EndpointFlag): T {
  const out: Record<string, unknown> = {}
  for (const [name, fn] of Object.entries(service)) {
    if (typeof fn !== 'function') {
      out[name] = fn
      continue
    }
    const call = fn as (...args: unknown[]) => Promise<unknown>
    out[name] = (...args: unknown[]) =>
      call(...args).catch((err: unknown) => {
        const why = err instanceof CriError && err.code === 'Unavailable' ? unreachableDetail(err.detail, ep, flag) : undefined
        throw why === undefined ? err : new CriError(err instanceof CriError ? err.call : name, 'Unavailable', why, {cause: err})
      })
  }
  return out as T
}
