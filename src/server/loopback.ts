// Loopback addresses and host names: what only this machine can reach, and the Host header check
// that keeps a DNS-rebinding web page from reading the endpoints through a browser. Pure.

/** Addresses only this machine can reach: the endpoints carry no authentication. */
export function isLoopback(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '')
  return a === 'localhost' || a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a) || /^::ffff:127\./.test(a)
}

/**
 * Whether the host a request names (`127.0.0.1:10255` → `127.0.0.1`, `[::1]:1` → `::1`) is a
 * loopback name. A web page whose name is made to resolve to 127.0.0.1 would otherwise read every
 * pod and log from the browser of anyone on this machine.
 */
export function loopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true // HTTP/1.0 without Host: no browser sends that
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '')
  return isLoopback(name.replace(/\.$/, ''))
}
