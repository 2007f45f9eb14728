// What a probe or lifecycle-hook handler runs against, what it answers, and the small helpers
// every handler shares (named ports, host:port, bounded output).
import type {ContainerPort} from '../api/types.js'

export interface HandlerTarget {
  /** The pod's IP (or the node's for host-network pods): the default host. */
  podIP: string
  containerId: string
  /** The container's ports, to resolve named ports. */
  ports: ContainerPort[]
}

/**
 * Success/Failure is what the handler saw in the container; Error means it could not be run at
 * all (e.g. an unknown port name), which the prober retries and then ignores.
 */
/** `warning`: a success the kubelet reports as probe.Warning (a redirect to another host). */
export type HandlerOutcome = {result: 'Success' | 'Failure' | 'Error'; output: string; warning?: true}

/** The kubelet reads at most 10 KiB of a probe's output or response body. */
export const MAX_OUTPUT_BYTES = 10 * 1024

/** The User-Agent of HTTP and gRPC probes, as the kubelet sends it. */
export const DEFAULT_USER_AGENT = 'kube-probe/1.33'

export function limitOutput(text: string): string {
  const buf = Buffer.from(text)
  return buf.length <= MAX_OUTPUT_BYTES ? text : buf.subarray(0, MAX_OUTPUT_BYTES).toString()
}

/**
 * A port by number, or by the name of one of the container's ports; a name that is not found
 * may still be a number written as a string (as the kubelet's extractPort).
 */
export function resolvePort(port: number | string, ports: readonly ContainerPort[]): {port: number} | {error: string} {
  let n: number
  if (typeof port === 'number') n = port
  else {
    const named = ports.find((p) => p.name === port)
    if (named !== undefined) n = named.containerPort
    else if (/^\d+$/.test(port)) n = Number(port)
    else return {error: `port "${port}" is not one of the container's named ports`}
  }
  if (!Number.isInteger(n) || n < 1 || n > 65535) return {error: `invalid port number: ${n}`}
  return {port: n}
}

/** `host:port`, with IPv6 literals bracketed. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`
}

export function seconds(ms: number): string {
  return `${ms / 1000}s`
}
